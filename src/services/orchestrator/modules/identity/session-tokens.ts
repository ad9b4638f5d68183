/**
 * Quartet session tokens: what the dashboard's OIDC code exchange answers. An HS256 JWT signed with
 * a key of this data dir, carrying only claims taken from a verified id_token; the bearer gate
 * accepts it while dashboard_oidc is enabled.
 */
import { decodeProtectedHeader, SignJWT, type JWTPayload } from 'jose'
import { createJwtVerifier, type JwtVerifier } from './jwt-verifier.js'

export const SESSION_ISSUER = 'quartet-session'
export const SESSION_KID = 'quartet-session-1'
const MAX_SESSION_SECONDS = 12 * 3600
const DEFAULT_SESSION_SECONDS = 3600

export interface SessionTokens {
  /** Signs a session for verified, already mapped claims (`roles`, `tenant`); it expires with the id_token (at most 12 h). */
  issue(claims: JWTPayload, nowSeconds: number): Promise<{ token: string; expiresAt: number }>
  verifier: JwtVerifier
  /** Whether a token claims to be a session token (its header names our key). */
  isSession(token: string): boolean
}

const CARRIED = ['sub', 'email', 'name', 'preferred_username', 'auth_time', 'roles', 'tenant'] as const

export function createSessionTokens(key: Uint8Array, audience: string): SessionTokens {
  return {
    async issue(claims, nowSeconds) {
      const carried: JWTPayload = {}
      for (const name of CARRIED) if (claims[name] !== undefined) (carried as Record<string, unknown>)[name] = claims[name]
      if (carried.auth_time === undefined && typeof claims.iat === 'number') carried.auth_time = claims.iat
      const idExpiry = typeof claims.exp === 'number' ? claims.exp : nowSeconds + DEFAULT_SESSION_SECONDS
      const expiresAt = Math.min(idExpiry, nowSeconds + MAX_SESSION_SECONDS)
      const token = await new SignJWT(carried)
        .setProtectedHeader({ alg: 'HS256', kid: SESSION_KID, typ: 'JWT' })
        .setIssuer(SESSION_ISSUER)
        .setAudience(audience)
        .setIssuedAt(nowSeconds)
        .setExpirationTime(expiresAt)
        .sign(key)
      return { token, expiresAt }
    },
    verifier: createJwtVerifier({ issuer: SESSION_ISSUER, audience, algorithms: ['HS256'], keys: key, clockToleranceSeconds: 5 }),
    isSession(token) {
      try {
        return decodeProtectedHeader(token).kid === SESSION_KID
      } catch {
        return false
      }
    }
  }
}
