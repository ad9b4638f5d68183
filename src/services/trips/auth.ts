import { generateKeyPairSync, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'
import { SignJWT, createRemoteJWKSet } from 'jose'
import type { FastifyRequest } from 'fastify'
import { bearerToken, createJwtVerifier, type JwtVerifier } from '../../core/auth/jwt.js'
import { loadOrCreateSecret, type PersistedSecret } from '../../core/secrets.js'
import { registerServerSecret } from '../../core/http/redact-url.js'
import type { TripsSettings } from './config.js'
import type { Caller } from './access.js'
import { tripsError } from './errors.js'

export const DEV_ISSUER = 'quartet-dev'
export const DEV_AUDIENCE = 'quartet-trips'
const DEV_KEY_FILE = 'trips-signing-key.jwk'

export interface DevSigningKey {
  privateKey: KeyObject
  publicKey: KeyObject
  secret: PersistedSecret
}

/** The development signing key (ES256), generated on first use and kept in the data dir. */
export function loadDevSigningKey(dataDir: string): DevSigningKey {
  const secret = loadOrCreateSecret(dataDir, DEV_KEY_FILE, () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    return JSON.stringify(privateKey.export({ format: 'jwk' }))
  })
  const jwk = JSON.parse(secret.value) as import('node:crypto').JsonWebKey
  // The private scalar is what must never be logged.
  registerServerSecret(jwk.d)
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' })
  return { privateKey, publicKey: createPublicKey(privateKey), secret }
}

/** A development token for `email`, as `quartet token trips` prints it. */
export async function signDevToken(key: DevSigningKey, email: string, ttlSeconds: number, emailClaim = 'email'): Promise<string> {
  return new SignJWT({ [emailClaim]: email })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setIssuer(DEV_ISSUER)
    .setAudience(DEV_AUDIENCE)
    .setSubject(email)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key.privateKey)
}

/** External IdP (JWKS + issuer + audience, RS256/ES256) when configured; otherwise the local dev key. */
export function createTripsVerifier(
  trips: TripsSettings,
  dataDir: string,
  clock: () => Date
): { verifier: JwtVerifier; mode: 'jwks' | 'dev'; devKey?: DevSigningKey } {
  if (trips.jwksUrl) {
    return {
      mode: 'jwks',
      verifier: createJwtVerifier({
        key: createRemoteJWKSet(new URL(trips.jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 600_000 }),
        algorithms: ['RS256', 'ES256'],
        issuer: trips.issuer,
        audience: trips.audience,
        clock,
        maxLifetimeSeconds: trips.tokenMaxLifetimeSeconds
      })
    }
  }
  const devKey = loadDevSigningKey(dataDir)
  return {
    mode: 'dev',
    devKey,
    verifier: createJwtVerifier({
      key: devKey.publicKey,
      algorithms: ['ES256'],
      issuer: DEV_ISSUER,
      audience: DEV_AUDIENCE,
      clock,
      maxLifetimeSeconds: trips.tokenMaxLifetimeSeconds
    })
  }
}

/** Resolves the caller of a request from its authorization header, or throws 401. */
export function createAuthenticator(verifier: JwtVerifier, emailClaim: string) {
  return async function authenticate(request: FastifyRequest): Promise<Caller> {
    const token = bearerToken(request.headers.authorization)
    if (!token) throw tripsError('TRIPS_NOT_AUTHENTICATED', undefined, { headers: { 'www-authenticate': 'Bearer' } })
    let payload
    try {
      payload = await verifier.verify(token)
    } catch {
      throw tripsError('TRIPS_NOT_AUTHENTICATED', undefined, { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } })
    }
    const email = payload[emailClaim]
    if (typeof email !== 'string' || email.length === 0) {
      throw tripsError('TRIPS_NOT_AUTHENTICATED', undefined, { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } })
    }
    return { email }
  }
}
