import { tokensEqual } from '../runtime/api-token.js'
import { isApiPath, rawPathOf } from './paths.js'

export interface AuthGateOptions {
  token: string | null
  disabled: boolean
  /** With no token: refuse (remote bind) rather than let requests through. */
  defaultDeny: boolean
}

export type AuthDecision = { ok: true } | { ok: false; status: 401 | 403; error: string }

const EXEMPT_PATHS = new Set(['/health', '/api/health', '/api/auth/oidc/exchange'])
// EventSource cannot send headers, so these GET streams also take ?token=.
const QUERY_TOKEN_PATHS = new Set(['/api/events', '/api/chat/stream'])
const QUERY_TOKEN_PREFIXES = ['/api/workers/', '/api/run-flow/']

export const AUTH_REQUIRED = 'authentication required'
export const FORBIDDEN = 'forbidden'
export const NO_TOKEN_CONFIGURED = 'authentication required — configure QUARTET_API_TOKEN or set QUARTET_API_AUTH_DISABLED=1 to bypass'

function acceptsQueryToken(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false
  return QUERY_TOKEN_PATHS.has(path) || QUERY_TOKEN_PREFIXES.some((prefix) => path.startsWith(prefix))
}

function queryToken(url: string): string | null {
  const start = url.indexOf('?')
  if (start === -1) return null
  return new URLSearchParams(url.slice(start + 1)).get('token')
}

/**
 * The bearer check for one request. Exempt and query-token paths are compared as sent
 * (undecoded), so an encoded variant of one is simply not exempt; whether the gate applies at
 * all is decided on the decoded path, so an encoded `/api/` is gated too.
 */
export function checkBearer(options: AuthGateOptions, method: string, url: string, authorization: string | undefined): AuthDecision {
  const path = rawPathOf(url)
  if (options.disabled || !isApiPath(url) || EXEMPT_PATHS.has(path)) return { ok: true }
  if (options.token === null) {
    return options.defaultDeny ? { ok: false, status: 401, error: NO_TOKEN_CONFIGURED } : { ok: true }
  }
  let presented: string | null
  if (authorization !== undefined) {
    const match = /^Bearer ([^\s].*)$/.exec(authorization)
    if (!match) return { ok: false, status: 401, error: AUTH_REQUIRED }
    presented = (match[1] as string).trim()
  } else {
    presented = acceptsQueryToken(method, path) ? queryToken(url) : null
    if (presented === null || presented === '') return { ok: false, status: 401, error: AUTH_REQUIRED }
  }
  return tokensEqual(presented, options.token) ? { ok: true } : { ok: false, status: 403, error: FORBIDDEN }
}
