import type { App } from '../server.js'

const COMMON_HEADERS = Object.freeze({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' })
const JSON_HEADERS = Object.freeze({ 'x-frame-options': 'DENY', 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" })

export interface SecurityHeadersOptions {
  /** Strict-Transport-Security max-age in seconds (only for services served behind TLS). */
  hstsMaxAgeSeconds?: number
  /** Sends `X-XSS-Protection: 0` with JSON (legacy browser filters off, as the orchestrator's reference does). */
  xssProtectionOff?: boolean
}

/** Headers every response carries, and the stricter ones for JSON (no framing, no content loading, no caching). */
export function securityHeaders(app: App, options: SecurityHeadersOptions = {}): void {
  const hsts = options.hstsMaxAgeSeconds ? `max-age=${options.hstsMaxAgeSeconds}; includeSubDomains` : undefined
  const jsonHeaders = options.xssProtectionOff ? Object.freeze({ ...JSON_HEADERS, 'x-xss-protection': '0' }) : JSON_HEADERS
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.headers(COMMON_HEADERS)
    reply.header('x-request-id', request.id)
    if (hsts) reply.header('strict-transport-security', hsts)
    const type = reply.getHeader('content-type')
    if (typeof type === 'string' && type.startsWith('application/json')) {
      void reply.headers(jsonHeaders)
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
    }
    done(null, payload)
  })
}
