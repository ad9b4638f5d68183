/**
 * POST /api/auth/oidc/exchange: the dashboard's PKCE authorization-code exchange. Discovery at the
 * issuer, the code (with its verifier) at the token endpoint, the id_token verified against the
 * issuer's JWKS (issuer pinned, audience = client_id), then a Quartet session token for the
 * verified claims. The client secret goes to the token endpoint only: never into an answer, an
 * error or the log (an IdP's error body is not passed on either).
 */
import type { JWTPayload } from 'jose'
import { orchestratorError } from '../../errors.js'
import type { ApiOidcConfig, DashboardOidcConfig } from '../../project/config-schema.js'
import type { ProjectConfigSource } from '../../project/config-source.js'
import { dashboardOidcEnabled, principalOfClaims } from './bearer-identity.js'
import { createJwtVerifier, discoveryUrl, JwtVerifyError, remoteKeys, type FetchLike, type JwtFailure } from './jwt-verifier.js'
import type { SessionTokens } from './session-tokens.js'

// RFC 7636 §4.1: 43 to 128 unreserved characters.
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/

export interface ExchangeInput {
  code?: string | undefined
  code_verifier?: string | undefined
}

export interface ExchangeResult {
  token: string
  expiresAt: string
  claims: { sub: string; email?: string; name?: string; preferredUsername?: string; role?: string; tenant?: string }
}

export interface OidcExchangeDeps {
  config: ProjectConfigSource
  fetch: FetchLike
  sessions: () => SessionTokens
  env: Readonly<Record<string, string | undefined>>
  clock: () => Date
}

function reasonOf(failure: JwtFailure): string {
  // The reference's reasons: a key the JWKS does not hold is a bad signature too.
  return failure === 'unknown_kid' ? 'invalid_signature' : failure
}

function fail(code: Parameters<typeof orchestratorError>[0], reason?: string): never {
  throw orchestratorError(code, undefined, reason === undefined ? {} : { details: [{ message: reason }] })
}

type EnabledConfig = DashboardOidcConfig & { issuer: string; client_id: string; redirect_uri: string }

interface Discovery {
  tokenEndpoint: string
  jwksUri: string
}

export function createOidcExchangeService(deps: OidcExchangeDeps) {
  // One JWKS cache per (issuer, jwks_uri): a rotated key is refetched on an unknown kid.
  const keySets = new Map<string, ReturnType<typeof remoteKeys>>()

  async function discover(config: EnabledConfig, timeoutMs: number): Promise<Discovery> {
    let document: Record<string, unknown>
    try {
      const response = await deps.fetch(discoveryUrl(config.issuer), { signal: AbortSignal.timeout(timeoutMs) })
      if (!response.ok) fail('ORCH_OIDC_DISCOVERY_FAILED', `discovery answered ${response.status}`)
      document = (await response.json()) as Record<string, unknown>
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ORCH_OIDC_DISCOVERY_FAILED') throw error
      fail('ORCH_OIDC_DISCOVERY_FAILED', 'discovery unreachable or not JSON')
    }
    const tokenEndpoint = document.token_endpoint
    const jwksUri = document.jwks_uri
    if (typeof tokenEndpoint !== 'string' || !/^https?:\/\//.test(tokenEndpoint)) fail('ORCH_OIDC_DISCOVERY_FAILED', 'no token_endpoint')
    if (typeof jwksUri !== 'string' || !/^https?:\/\//.test(jwksUri)) fail('ORCH_OIDC_DISCOVERY_FAILED', 'no jwks_uri')
    if (document.issuer !== undefined && document.issuer !== config.issuer)
      fail('ORCH_OIDC_DISCOVERY_FAILED', 'issuer mismatch in discovery')
    return { tokenEndpoint, jwksUri }
  }

  function clientSecret(config: EnabledConfig): string | undefined {
    if (config.client_secret_env !== undefined) return deps.env[config.client_secret_env] || undefined
    return config.client_secret
  }

  async function redeem(config: EnabledConfig, discovery: Discovery, input: Required<ExchangeInput>, timeoutMs: number) {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: input.code,
      code_verifier: input.code_verifier,
      client_id: config.client_id,
      redirect_uri: config.redirect_uri
    })
    const secret = clientSecret(config)
    if (secret !== undefined) form.set('client_secret', secret)
    let body: Record<string, unknown>
    try {
      const response = await deps.fetch(discovery.tokenEndpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(timeoutMs)
      })
      if (!response.ok) fail('ORCH_OIDC_TOKEN_EXCHANGE_FAILED', `token endpoint answered ${response.status}`)
      body = (await response.json()) as Record<string, unknown>
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ORCH_OIDC_TOKEN_EXCHANGE_FAILED') throw error
      fail('ORCH_OIDC_TOKEN_EXCHANGE_FAILED', 'token endpoint unreachable or not JSON')
    }
    const idToken = body.id_token
    if (typeof idToken !== 'string' || idToken === '') fail('ORCH_OIDC_ID_TOKEN_MISSING')
    return idToken
  }

  async function verifyIdToken(config: EnabledConfig, discovery: Discovery, idToken: string): Promise<JWTPayload> {
    const cacheKey = `${config.issuer} ${discovery.jwksUri}`
    let keys = keySets.get(cacheKey)
    if (!keys) {
      keys = remoteKeys({ issuer: config.issuer, jwksUri: discovery.jwksUri, fetch: deps.fetch, cooldownSeconds: 30 })
      keySets.set(cacheKey, keys)
    }
    const verifier = createJwtVerifier({ issuer: config.issuer, audience: config.client_id, algorithms: ['RS256', 'ES256'], keys })
    try {
      const payload = await verifier.verify(idToken)
      if (typeof payload.sub !== 'string' || payload.sub === '') fail('ORCH_OIDC_ID_TOKEN_INVALID', 'missing_sub')
      return payload
    } catch (error) {
      if (error instanceof JwtVerifyError) fail('ORCH_OIDC_ID_TOKEN_INVALID', reasonOf(error.reason))
      throw error
    }
  }

  return {
    /** Whether the exchange is configured (else 404 oidc_disabled). */
    enabled(): boolean {
      const read = deps.config.read()
      return read.errors.length === 0 && dashboardOidcEnabled(read.config.dashboard_oidc)
    },

    async exchange(input: ExchangeInput): Promise<ExchangeResult> {
      const read = deps.config.read()
      const config = read.errors.length === 0 ? read.config.dashboard_oidc : undefined
      if (!dashboardOidcEnabled(config)) fail('ORCH_OIDC_DISABLED')
      // Checked before any call to the identity provider.
      if (typeof input.code !== 'string' || input.code === '') fail('ORCH_OIDC_INVALID_REQUEST', 'code is required')
      if (typeof input.code_verifier !== 'string' || input.code_verifier === '') {
        fail('ORCH_OIDC_INVALID_REQUEST', 'code_verifier is required')
      }
      if (!PKCE_VERIFIER.test(input.code_verifier)) fail('ORCH_OIDC_INVALID_REQUEST', 'code_verifier must be 43-128 unreserved characters')
      const timeoutMs = (config.timeout_seconds ?? 10) * 1000
      const discovery = await discover(config, timeoutMs)
      const idToken = await redeem(config, discovery, { code: input.code, code_verifier: input.code_verifier }, timeoutMs)
      const payload = await verifyIdToken(config, discovery, idToken)
      // Roles and tenant are read as api_oidc says (its claim names), then carried in the session.
      const mapping: ApiOidcConfig = read.config.api_oidc ?? { issuer: config.issuer }
      const principal = principalOfClaims(payload, mapping)
      const now = Math.floor(deps.clock().getTime() / 1000)
      const session = await deps.sessions().issue(
        {
          ...payload,
          roles: [...(principal.roles ?? [])],
          ...(principal.tenantClaimed ? { tenant: principal.tenantId } : {})
        },
        now
      )
      const claims = principal.claims ?? {}
      return {
        token: session.token,
        expiresAt: new Date(session.expiresAt * 1000).toISOString(),
        claims: {
          sub: payload.sub as string,
          ...claims,
          role: principal.role,
          ...(principal.tenantClaimed ? { tenant: principal.tenantId } : {})
        }
      }
    }
  }
}
export type OidcExchangeService = ReturnType<typeof createOidcExchangeService>
