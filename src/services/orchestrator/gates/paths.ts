import { rawPathOf } from '../../../core/http/route-table.js'

/**
 * Whether the router may dispatch this URL to an `/api/` route. find-my-way percent-decodes the
 * path before matching, so `/%61pi/status` is `/api/status` and must meet the same gates.
 * Only ASCII escapes are decoded here (enough to spell `/api/`), so this never throws.
 */
export function isApiPath(url: string): boolean {
  return rawPathOf(url)
    .replace(/%([0-7][0-9a-fA-F])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .startsWith('/api/')
}

/** `/api/v1/…` is an alias of `/api/…`; pass as Fastify's `rewriteUrl` (through rewriteV1Request). */
export function rewriteV1Url(url: string): string {
  if (url.startsWith('/api/v1/')) return `/api/${url.slice('/api/v1/'.length)}`
  if (url === '/api/v1' || url.startsWith('/api/v1?')) return `/api${url.slice('/api/v1'.length)}`
  return url
}

/**
 * An absolute-form target (`GET http://host/api/x`, as sent to proxies) as its origin form. The
 * router strips the origin itself; doing it before the gates makes them read the path it routes.
 */
export function originFormOf(url: string): string {
  if (url.startsWith('/')) return url
  const origin = /^https?:\/\/[^/?#]*/i.exec(url)
  if (!origin) return url
  const rest = url.slice(origin[0].length)
  return rest.startsWith('/') ? rest : `/${rest}`
}

/** Fastify's `rewriteUrl` constructor option: origin form first, then the v1 alias. */
export function rewriteV1Request(request: { url?: string | undefined }): string {
  return rewriteV1Url(originFormOf(request.url ?? '/'))
}
