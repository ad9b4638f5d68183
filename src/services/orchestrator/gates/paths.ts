/** The path part of a request URL, exactly as sent (no decoding): exemptions compare against this. */
export function rawPathOf(url: string): string {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

/**
 * The path as the router sees it (percent-decoded, no trailing slash), so `/api/%73tart` or
 * `/api/start/` cannot slip past a rule written for `/api/start`. null when it cannot be decoded.
 */
export function normalisedPathOf(url: string): string | null {
  let path: string
  try {
    path = decodeURIComponent(rawPathOf(url))
  } catch {
    return null
  }
  path = path.replace(/\/{2,}/g, '/')
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}

/** `/api/v1/…` is an alias of `/api/…`; pass as Fastify's `rewriteUrl` (through rewriteV1Request). */
export function rewriteV1Url(url: string): string {
  if (url.startsWith('/api/v1/')) return `/api/${url.slice('/api/v1/'.length)}`
  if (url === '/api/v1' || url.startsWith('/api/v1?')) return `/api${url.slice('/api/v1'.length)}`
  return url
}

/** Fastify's `rewriteUrl` constructor option. */
export function rewriteV1Request(request: { url?: string | undefined }): string {
  return rewriteV1Url(request.url ?? '/')
}
