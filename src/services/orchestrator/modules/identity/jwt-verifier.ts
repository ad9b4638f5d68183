/**
 * Verification of OpenID tokens with jose: issuer, audience and algorithms pinned, keys from the
 * issuer's JWKS (refetched when an unknown `kid` arrives, so a rotated key works without a restart)
 * or, in development, one shared HS256 key. Used by the bearer gate (api_oidc) and by the
 * dashboard's code exchange (dashboard_oidc, the id_token).
 */
import { createRemoteJWKSet, customFetch, decodeProtectedHeader, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>

export type JwtFailure =
  | 'malformed'
  | 'alg_none_rejected'
  | 'alg_not_allowed'
  | 'invalid_signature'
  | 'unknown_kid'
  | 'issuer_mismatch'
  | 'audience_mismatch'
  | 'expired'
  | 'not_yet_valid'
  | 'claims_invalid'
  | 'jwks_unavailable'

export class JwtVerifyError extends Error {
  constructor(
    readonly reason: JwtFailure,
    message: string
  ) {
    super(message)
  }
}

export interface JwtVerifier {
  verify(token: string): Promise<JWTPayload>
}

export interface JwtVerifierOptions {
  issuer: string
  audience?: string | undefined
  algorithms: readonly string[]
  /** A JWKS (keys chosen by `kid`) or a shared HMAC key. */
  keys: JWTVerifyGetKey | Uint8Array
  clockToleranceSeconds?: number
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

/** Three base64url segments: worth verifying as a JWT (an opaque token never is). */
export function isJwtShaped(token: string): boolean {
  return JWT_SHAPE.test(token)
}

function classify(error: unknown): JwtVerifyError {
  if (error instanceof JwtVerifyError) return error
  if (error instanceof errors.JWKSNoMatchingKey) return new JwtVerifyError('unknown_kid', 'no key of the issuer matches the token')
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new JwtVerifyError('invalid_signature', 'signature verification failed')
  if (error instanceof errors.JOSEAlgNotAllowed) return new JwtVerifyError('alg_not_allowed', 'the token algorithm is not allowed')
  if (error instanceof errors.JWTExpired) return new JwtVerifyError('expired', 'the token has expired')
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return new JwtVerifyError('issuer_mismatch', 'unexpected issuer')
    if (error.claim === 'aud') return new JwtVerifyError('audience_mismatch', 'unexpected audience')
    if (error.claim === 'nbf' || error.claim === 'iat') return new JwtVerifyError('not_yet_valid', 'the token is not yet valid')
    return new JwtVerifyError('claims_invalid', `invalid claim ${error.claim}`)
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error instanceof errors.JOSEError) {
    if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) return new JwtVerifyError('malformed', 'malformed token')
    if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
      return new JwtVerifyError('jwks_unavailable', 'the JWKS is unavailable')
    return new JwtVerifyError('malformed', error.message)
  }
  // A network failure reaching the JWKS (fetch throws a TypeError).
  return new JwtVerifyError('jwks_unavailable', 'the JWKS is unavailable')
}

export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  const algorithms = [...options.algorithms]
  return {
    async verify(token) {
      if (!isJwtShaped(token)) throw new JwtVerifyError('malformed', 'not a JWT')
      let alg: unknown
      try {
        alg = decodeProtectedHeader(token).alg
      } catch {
        throw new JwtVerifyError('malformed', 'unreadable JWT header')
      }
      if (typeof alg !== 'string' || alg.toLowerCase() === 'none')
        throw new JwtVerifyError('alg_none_rejected', 'unsigned tokens are refused')
      if (!algorithms.includes(alg)) throw new JwtVerifyError('alg_not_allowed', `algorithm ${alg} is not allowed`)
      try {
        const verifyOptions = {
          issuer: options.issuer,
          algorithms,
          clockTolerance: options.clockToleranceSeconds ?? 30,
          ...(options.audience !== undefined ? { audience: options.audience } : {})
        }
        const result =
          options.keys instanceof Uint8Array
            ? await jwtVerify(token, options.keys, verifyOptions)
            : await jwtVerify(token, options.keys, verifyOptions)
        return result.payload
      } catch (error) {
        throw classify(error)
      }
    }
  }
}

export interface RemoteKeysOptions {
  /** The JWKS address; else the issuer's discovery document names it. */
  jwksUri?: string | undefined
  issuer: string
  cooldownSeconds?: number
  fetch: FetchLike
  timeoutMs?: number
}

/** The issuer's discovery document URL (`<issuer>/.well-known/openid-configuration`). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
}

/**
 * Keys from a remote JWKS, found by discovery when no address is configured. A failed discovery
 * is retried on the next token (never cached).
 */
export function remoteKeys(options: RemoteKeysOptions): JWTVerifyGetKey {
  let set: Promise<JWTVerifyGetKey> | undefined
  const timeoutMs = options.timeoutMs ?? 5000
  const build = async (): Promise<JWTVerifyGetKey> => {
    let uri = options.jwksUri
    if (uri === undefined) {
      const response = await options.fetch(discoveryUrl(options.issuer), { signal: AbortSignal.timeout(timeoutMs) })
      if (!response.ok) throw new JwtVerifyError('jwks_unavailable', `discovery answered ${response.status}`)
      const document = (await response.json()) as { jwks_uri?: unknown }
      if (typeof document.jwks_uri !== 'string') throw new JwtVerifyError('jwks_unavailable', 'discovery names no jwks_uri')
      uri = document.jwks_uri
    }
    return createRemoteJWKSet(new URL(uri), {
      cooldownDuration: (options.cooldownSeconds ?? 30) * 1000,
      cacheMaxAge: 10 * 60 * 1000,
      timeoutDuration: timeoutMs,
      [customFetch]: (url, init) => options.fetch(url, init)
    })
  }
  return async (header, token) => {
    set ??= build().catch((error: unknown) => {
      set = undefined
      throw error
    })
    return (await set)(header, token)
  }
}
