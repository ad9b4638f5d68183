import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type CryptoKey, type KeyObject } from 'jose'
import { createLru } from '../lru.js'

export interface JwtVerifierOptions {
  /** A JWKS getter (createRemoteJWKSet / createLocalJWKSet), a public key, or an HMAC secret. */
  key: JWTVerifyGetKey | CryptoKey | KeyObject | Uint8Array
  algorithms: string[]
  issuer?: string | undefined
  audience?: string | undefined
  clock?: () => Date
  /** Verified tokens remembered until they expire (default 10,000). */
  cacheSize?: number
  /**
   * Longest lifetime accepted, in seconds (default 24 h): `exp - iat`, and `exp - now` (so a
   * token without `iat`, or with one in the future, cannot outlive the cap either).
   */
  maxLifetimeSeconds?: number
}

export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60
const CLOCK_TOLERANCE_SECONDS = 5

export interface JwtVerifier {
  /** Resolves the verified payload; rejects on any signature, algorithm, issuer, audience, expiry or lifetime problem. */
  verify(token: string): Promise<JWTPayload>
}

/**
 * Verifies JWTs and caches each verified token until its expiry, so repeated requests with the
 * same bearer do not pay for signature checks. Failures are never cached. Every token must
 * expire (`exp` is required) within the lifetime cap: a stolen token without one would
 * otherwise be valid forever.
 */
export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  const clock = options.clock ?? (() => new Date())
  const maxEntries = options.cacheSize ?? 10_000
  const maxLifetime = options.maxLifetimeSeconds ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS
  if (!(maxLifetime > 0)) throw new Error('createJwtVerifier: maxLifetimeSeconds must be positive')
  const cache = createLru<string, JWTPayload>(maxEntries)

  return {
    async verify(token) {
      const cached = cache.get(token)
      const nowSeconds = clock().getTime() / 1000
      if (cached) {
        if (cached.exp !== undefined && cached.exp > nowSeconds) return cached
        cache.delete(token)
      }
      const getKey = options.key
      const { payload } =
        typeof getKey === 'function'
          ? await jwtVerify(token, getKey, verifyOptions(options, clock))
          : await jwtVerify(token, getKey, verifyOptions(options, clock))
      checkLifetime(payload, nowSeconds, maxLifetime)
      cache.set(token, payload)
      return payload
    }
  }
}

function verifyOptions(options: JwtVerifierOptions, clock: () => Date) {
  return {
    algorithms: options.algorithms,
    ...(options.issuer ? { issuer: options.issuer } : {}),
    ...(options.audience ? { audience: options.audience } : {}),
    currentDate: clock(),
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    requiredClaims: ['exp']
  }
}

function checkLifetime(payload: JWTPayload, nowSeconds: number, maxLifetime: number): void {
  const exp = payload.exp as number
  const tooLong =
    (typeof payload.iat === 'number' && exp - payload.iat > maxLifetime) || exp - nowSeconds > maxLifetime + CLOCK_TOLERANCE_SECONDS
  if (tooLong) throw new errors.JWTClaimValidationFailed(`token lifetime exceeds ${maxLifetime} s`, payload, 'exp', 'check_failed')
}

/** The token of an Authorization header: "Bearer x" or a bare "x" (the last space-separated part). */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined
  const parts = header.trim().split(/\s+/)
  if (parts.length > 2) return undefined
  if (parts.length === 2 && parts[0]?.toLowerCase() !== 'bearer') return undefined
  const token = parts[parts.length - 1]
  return token ? token : undefined
}
