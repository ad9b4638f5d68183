import { randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'
import type { FastifyRequest } from 'fastify'
import { AppError } from '../../core/errors/app-error.js'
import { bearerToken, createJwtVerifier, type JwtVerifier } from '../../core/auth/jwt.js'
import { loadOrCreateSecret, type PersistedSecret } from '../../core/secrets.js'
import { feedError } from './errors.js'

/** Tokens live one hour, as in the original; the client logs out when they expire. */
export const TOKEN_TTL_SECONDS = 3600
export const DEV_SECRET_FILE = 'feed-jwt-secret'

export interface FeedCaller {
  userId: number
  email: string
  /** When the token expires (ms since the epoch); the verifier requires `exp`. */
  expiresAt: number
}

export interface FeedTokens {
  sign(claims: { email: string; userId: string }): Promise<string>
  verify(token: string): Promise<FeedCaller>
}

/** The signing secret: JWT_SECRET, or (development only) one generated and kept in the data dir. */
export function resolveJwtSecret(jwtSecret: string | undefined, dataDir: string): { secret: string; generated?: PersistedSecret } {
  if (jwtSecret) return { secret: jwtSecret }
  const generated = loadOrCreateSecret(dataDir, DEV_SECRET_FILE, () => randomBytes(48).toString('base64url'))
  return { secret: generated.value, generated }
}

/** HS256 tokens with payload {email, userId}, signed and verified with one secret. */
export function createFeedTokens(secret: string, clock: () => Date, maxLifetimeSeconds?: number): FeedTokens {
  const key = new TextEncoder().encode(secret)
  const verifier: JwtVerifier = createJwtVerifier({
    key,
    algorithms: ['HS256'],
    clock,
    ...(maxLifetimeSeconds ? { maxLifetimeSeconds } : {})
  })
  return {
    sign({ email, userId }) {
      const issuedAt = Math.floor(clock().getTime() / 1000)
      return new SignJWT({ email, userId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + TOKEN_TTL_SECONDS)
        .sign(key)
    },
    async verify(token) {
      let payload
      try {
        payload = await verifier.verify(token)
      } catch {
        throw invalidToken()
      }
      const userId = typeof payload.userId === 'string' && /^[0-9]{1,15}$/.test(payload.userId) ? Number(payload.userId) : NaN
      if (!Number.isSafeInteger(userId) || userId < 1) throw invalidToken()
      return { userId, email: typeof payload.email === 'string' ? payload.email : '', expiresAt: (payload.exp as number) * 1000 }
    }
  }
}

function invalidToken(): AppError {
  return feedError('FEED_TOKEN_INVALID', undefined, { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } })
}

/** Resolves the caller from `Authorization: Bearer <jwt>`, or throws 401. */
export function createAuthenticator(tokens: FeedTokens) {
  return async function authenticate(request: FastifyRequest): Promise<FeedCaller> {
    const header = request.headers.authorization
    if (header === undefined || header.trim() === '') {
      throw feedError('FEED_NOT_AUTHENTICATED', undefined, { headers: { 'www-authenticate': 'Bearer' } })
    }
    // Only "Bearer <jwt>": the original took the header's second part, so a bare token failed.
    const token = header.trim().split(/\s+/).length === 2 ? bearerToken(header) : undefined
    if (!token) throw invalidToken()
    return tokens.verify(token)
  }
}
