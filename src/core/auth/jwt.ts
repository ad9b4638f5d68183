import { jwtVerify, type JWTPayload, type JWTVerifyGetKey, type CryptoKey, type KeyObject } from 'jose'

export interface JwtVerifierOptions {
  /** A JWKS getter (createRemoteJWKSet / createLocalJWKSet), a public key, or an HMAC secret. */
  key: JWTVerifyGetKey | CryptoKey | KeyObject | Uint8Array
  algorithms: string[]
  issuer?: string | undefined
  audience?: string | undefined
  clock?: () => Date
  /** Verified tokens remembered until they expire (default 10,000). */
  cacheSize?: number
}

export interface JwtVerifier {
  /** Resolves the verified payload; rejects on any signature, algorithm, issuer, audience or expiry problem. */
  verify(token: string): Promise<JWTPayload>
}

/**
 * Verifies JWTs and caches each verified token until its expiry, so repeated requests with the
 * same bearer do not pay for signature checks. Failures are never cached.
 */
export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  const clock = options.clock ?? (() => new Date())
  const maxEntries = options.cacheSize ?? 10_000
  const cache = new Map<string, JWTPayload>()

  return {
    async verify(token) {
      const cached = cache.get(token)
      const nowSeconds = clock().getTime() / 1000
      if (cached) {
        if (cached.exp === undefined || cached.exp > nowSeconds) return cached
        cache.delete(token)
      }
      const getKey = options.key
      const { payload } = typeof getKey === 'function'
        ? await jwtVerify(token, getKey, verifyOptions(options, clock))
        : await jwtVerify(token, getKey, verifyOptions(options, clock))
      if (cache.size >= maxEntries) {
        const oldest = cache.keys().next().value
        if (oldest !== undefined) cache.delete(oldest)
      }
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
    clockTolerance: 5
  }
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
