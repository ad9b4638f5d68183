import type { Principal } from '../principal.js'
import { tokensEqual } from '../runtime/api-token.js'

export interface AuthGateOptions {
  token: string | null
  disabled: boolean
  /** With no token: refuse (remote bind) rather than let requests through. */
  defaultDeny: boolean
}

/** Verifies a presented OIDC bearer token; null when api_oidc is not configured (read per request). */
export type OidcBearer = ((token: string) => Promise<Principal | null>) | null

export interface BearerIdentity {
  /** The API token's owner (also every caller while auth is disabled). */
  owner: Principal
  /** The api_oidc verifier in force now (null: OIDC bearers are not accepted). */
  oidc(): OidcBearer
}

export type AuthDecision = { ok: true } | { ok: false; status: 401 | 403; error: string }
export type AuthResult = { ok: true; principal: Principal } | { ok: false; status: 401 | 403; error: string }

export const AUTH_REQUIRED = 'authentication required'
export const FORBIDDEN = 'forbidden'
export const NO_TOKEN_CONFIGURED = 'authentication required — configure QUARTET_API_TOKEN or set QUARTET_API_AUTH_DISABLED=1 to bypass'

function queryToken(url: string): string | null {
  const start = url.indexOf('?')
  if (start === -1) return null
  return new URLSearchParams(url.slice(start + 1)).get('token')
}

/** The token a request presents: the Authorization header, or (only where allowed) `?token=`. */
function presentedToken(authorization: string | undefined, queryTokenUrl: string | null): string | { error: string } {
  if (authorization !== undefined) {
    const match = /^Bearer ([^\s].*)$/.exec(authorization)
    if (!match) return { error: AUTH_REQUIRED }
    return (match[1] as string).trim()
  }
  const presented = queryTokenUrl === null ? null : queryToken(queryTokenUrl)
  if (presented === null || presented === '') return { error: AUTH_REQUIRED }
  return presented
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(authorization: string | undefined): string | null {
  if (authorization === undefined) return null
  const match = /^Bearer ([^\s].*)$/.exec(authorization)
  return match ? (match[1] as string).trim() : null
}

/**
 * The bearer check of one request to a route that needs a caller: the Authorization header, or
 * (only where the route allows it, `queryTokenUrl` given) a `?token=` in the URL.
 */
export function checkBearer(options: AuthGateOptions, authorization: string | undefined, queryTokenUrl: string | null): AuthDecision {
  if (options.disabled) return { ok: true }
  if (options.token === null) return options.defaultDeny ? { ok: false, status: 401, error: NO_TOKEN_CONFIGURED } : { ok: true }
  const presented = presentedToken(authorization, queryTokenUrl)
  if (typeof presented !== 'string') return { ok: false, status: 401, error: presented.error }
  return tokensEqual(presented, options.token) ? { ok: true } : { ok: false, status: 403, error: FORBIDDEN }
}

/**
 * Who a request's bearer stands for: the API token's owner, or the subject of an OIDC token
 * verified against the configured issuer. A token that is neither is refused (403), with the
 * same body whatever the reason, so a caller learns nothing about why.
 */
export async function authenticate(
  options: AuthGateOptions,
  identity: BearerIdentity,
  authorization: string | undefined,
  queryTokenUrl: string | null
): Promise<AuthResult> {
  if (options.disabled) return { ok: true, principal: identity.owner }
  if (options.token === null && identity.oidc() === null) {
    return options.defaultDeny ? { ok: false, status: 401, error: NO_TOKEN_CONFIGURED } : { ok: true, principal: identity.owner }
  }
  const presented = presentedToken(authorization, queryTokenUrl)
  if (typeof presented !== 'string') return { ok: false, status: 401, error: presented.error }
  if (options.token !== null && tokensEqual(presented, options.token)) return { ok: true, principal: identity.owner }
  // Only now: finding the OIDC verifier in force checks the configuration file, a cost the API token need not pay.
  const oidc = identity.oidc()
  if (oidc !== null) {
    const principal = await oidc(presented)
    if (principal !== null) return { ok: true, principal }
  }
  return { ok: false, status: 403, error: FORBIDDEN }
}
