import { tokensEqual } from '../runtime/api-token.js'

export interface AuthGateOptions {
  token: string | null
  disabled: boolean
  /** With no token: refuse (remote bind) rather than let requests through. */
  defaultDeny: boolean
}

export type AuthDecision = { ok: true } | { ok: false; status: 401 | 403; error: string }

export const AUTH_REQUIRED = 'authentication required'
export const FORBIDDEN = 'forbidden'
export const NO_TOKEN_CONFIGURED = 'authentication required — configure QUARTET_API_TOKEN or set QUARTET_API_AUTH_DISABLED=1 to bypass'

function queryToken(url: string): string | null {
  const start = url.indexOf('?')
  if (start === -1) return null
  return new URLSearchParams(url.slice(start + 1)).get('token')
}

/**
 * The bearer check of one request to a route that needs a caller: the Authorization header, or
 * (only where the route allows it, `queryTokenUrl` given) a `?token=` in the URL.
 */
export function checkBearer(options: AuthGateOptions, authorization: string | undefined, queryTokenUrl: string | null): AuthDecision {
  if (options.disabled) return { ok: true }
  if (options.token === null) return options.defaultDeny ? { ok: false, status: 401, error: NO_TOKEN_CONFIGURED } : { ok: true }
  let presented: string | null
  if (authorization !== undefined) {
    const match = /^Bearer ([^\s].*)$/.exec(authorization)
    if (!match) return { ok: false, status: 401, error: AUTH_REQUIRED }
    presented = (match[1] as string).trim()
  } else {
    presented = queryTokenUrl === null ? null : queryToken(queryTokenUrl)
    if (presented === null || presented === '') return { ok: false, status: 401, error: AUTH_REQUIRED }
  }
  return tokensEqual(presented, options.token) ? { ok: true } : { ok: false, status: 403, error: FORBIDDEN }
}
