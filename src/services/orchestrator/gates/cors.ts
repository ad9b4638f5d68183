/** Loopback dev servers and the dashboard on any port; http only, port required. */
const LOOPBACK_ORIGIN = /^http:\/\/(?:localhost|127\.0\.0\.1|\[::1\]):\d{1,5}$/

export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'
export const CORS_ALLOW_HEADERS = 'Content-Type, Authorization, Last-Event-ID'

/**
 * The origin to reflect in Access-Control-Allow-Origin, or null for none. `null` is the
 * packaged desktop renderer (file://); everything else gets no CORS grant and the browser
 * blocks it.
 */
export function resolveCorsOrigin(origin: string | undefined): string | null {
  if (origin === undefined) return null
  if (origin === 'null') return 'null'
  return LOOPBACK_ORIGIN.test(origin) ? origin : null
}
