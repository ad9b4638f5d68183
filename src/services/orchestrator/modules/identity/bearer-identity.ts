/**
 * api_oidc: the OIDC bearer tokens the API accepts, and the Principal a verified token stands for.
 * Tenant and roles come from the verified payload only.
 */
import type { JWTPayload } from 'jose'
import type { ApiOidcConfig, DashboardOidcConfig } from '../../project/config-schema.js'
import type { ProjectConfigSource } from '../../project/config-source.js'
import { LOCAL_TENANT, tierOf, type Principal } from '../../principal.js'
import { createJwtVerifier, isJwtShaped, JwtVerifyError, remoteKeys, type FetchLike, type JwtVerifier } from './jwt-verifier.js'
import type { SessionTokens } from './session-tokens.js'

const DEFAULT_ROLE_CLAIMS = ['role', 'roles']
const DEFAULT_TENANT_CLAIMS = ['tenant', 'tenantId']
const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

function claimAt(payload: JWTPayload, claimPath: string): unknown {
  if (claimPath in payload) return payload[claimPath]
  let value: unknown = payload
  for (const part of claimPath.split('.')) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

function rolesOf(payload: JWTPayload, config: ApiOidcConfig): string[] {
  for (const name of config.role_claim ? [config.role_claim] : DEFAULT_ROLE_CLAIMS) {
    const value = claimAt(payload, name)
    if (typeof value === 'string' && value !== '') return [value]
    if (Array.isArray(value)) return value.filter((role): role is string => typeof role === 'string' && role !== '')
  }
  return []
}

function tenantOf(payload: JWTPayload, config: ApiOidcConfig): string | undefined {
  for (const name of config.tenant_claim ? [config.tenant_claim] : DEFAULT_TENANT_CLAIMS) {
    const value = claimAt(payload, name)
    if (typeof value === 'string' && TENANT_ID.test(value)) return value
  }
  return undefined
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The caller a verified payload stands for; without a role claim, a viewer. */
export function principalOfClaims(payload: JWTPayload, config: ApiOidcConfig): Principal {
  const claimed = rolesOf(payload, config)
  const roles = claimed.length > 0 ? claimed : ['viewer']
  const tenant = tenantOf(payload, config)
  const sub = text(payload.sub)
  const email = text(payload.email)
  const name = text(payload.name)
  const preferredUsername = text(payload.preferred_username)
  const authTime = typeof payload.auth_time === 'number' ? payload.auth_time : payload.iat
  return {
    id: sub ?? 'api-oidc',
    label: email ?? preferredUsername ?? sub ?? 'api-oidc',
    tenantId: tenant ?? LOCAL_TENANT,
    tenantClaimed: tenant !== undefined,
    role: tierOf(roles),
    roles,
    channel: 'api',
    mode: 'oidc',
    claims: {
      ...(sub !== undefined ? { sub } : {}),
      ...(email !== undefined ? { email } : {}),
      ...(name !== undefined ? { name } : {}),
      ...(preferredUsername !== undefined ? { preferredUsername } : {})
    },
    ...(authTime !== undefined ? { authTime } : {})
  }
}

/** A verifier for one api_oidc configuration; null when it is incomplete (refused, never guessed). */
export function apiOidcVerifier(config: ApiOidcConfig, fetch: FetchLike): JwtVerifier | null {
  const tolerance = config.clock_tolerance_seconds !== undefined ? { clockToleranceSeconds: config.clock_tolerance_seconds } : {}
  if (config.algorithm === 'HS256') {
    if (config.key === undefined) return null
    return createJwtVerifier({
      issuer: config.issuer,
      audience: config.audience,
      algorithms: ['HS256'],
      keys: new TextEncoder().encode(config.key),
      ...tolerance
    })
  }
  if (config.audience === undefined) return null
  return createJwtVerifier({
    issuer: config.issuer,
    audience: config.audience,
    algorithms: config.algorithms ?? ['RS256', 'ES256'],
    keys: remoteKeys({
      issuer: config.issuer,
      jwksUri: config.jwks_uri,
      ...(config.jwks_cooldown_seconds !== undefined ? { cooldownSeconds: config.jwks_cooldown_seconds } : {}),
      fetch
    }),
    ...tolerance
  })
}

/** The dashboard exchange is usable only with every field it needs (else it answers oidc_disabled). */
export function dashboardOidcEnabled(
  config: DashboardOidcConfig | undefined
): config is DashboardOidcConfig & { issuer: string; client_id: string; redirect_uri: string } {
  return config?.enabled === true && config.issuer !== undefined && config.client_id !== undefined && config.redirect_uri !== undefined
}

/** Session tokens carry claims already mapped (roles, tenant) at the exchange. */
const SESSION_CLAIMS: ApiOidcConfig = { issuer: 'quartet-session', role_claim: 'roles', tenant_claim: 'tenant' }

export interface OidcBearerOptions {
  config: ProjectConfigSource
  fetch: FetchLike
  /** Built on first use (it reads or creates the session key). */
  sessions: () => SessionTokens
  /** A refused token's reason, for the log (never the token). */
  onRefused?: (reason: string) => void
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number
}

type Verify = (token: string) => Promise<Principal | null>

/** How long a verified bearer is trusted without verifying it again; never past its `exp`. */
const VERIFIED_TTL_MS = 60_000
const VERIFIED_MAX = 1024

/**
 * Bearers verified recently, by token: a dashboard or script presents the same token on every
 * request, and a signature check per request costs more than the request. Bounded in time (the
 * JWKS cache keeps a removed key for longer anyway) and in size (oldest first out); one cache per
 * configuration, so a changed api_oidc forgets every entry.
 */
function verifiedBearers(now: () => number) {
  const entries = new Map<string, { principal: Principal; until: number }>()
  return {
    get(token: string): Principal | undefined {
      const hit = entries.get(token)
      if (hit === undefined) return undefined
      if (hit.until > now()) return hit.principal
      entries.delete(token)
      return undefined
    },
    remember(token: string, principal: Principal, payload: JWTPayload): Principal {
      const until = Math.min(now() + VERIFIED_TTL_MS, typeof payload.exp === 'number' ? payload.exp * 1000 : Infinity)
      if (until <= now()) return principal
      if (entries.size >= VERIFIED_MAX) entries.delete(entries.keys().next().value as string)
      const frozen = Object.freeze(principal)
      entries.set(token, { principal: frozen, until })
      return frozen
    }
  }
}

/**
 * The verifier of OIDC bearers in force: api_oidc tokens, and Quartet session tokens while
 * dashboard_oidc is enabled. Rebuilt when the configuration changes (its JWKS cache kept
 * otherwise); none while the configuration file is invalid (fail closed).
 */
export function createOidcBearer(options: OidcBearerOptions): () => Verify | null {
  let cached: { key: string; verify: Verify | null } | undefined
  const refuse = (error: unknown) => {
    options.onRefused?.(error instanceof JwtVerifyError ? error.reason : 'error')
    return null
  }
  let lastRead: { read: ReturnType<ProjectConfigSource['read']>; verify: Verify | null } | undefined
  return () => {
    const read = options.config.read()
    // The source hands back the same result until the file changes: nothing to compare then.
    if (lastRead?.read === read) return lastRead.verify
    const verify = verifierFor(read)
    lastRead = { read, verify }
    return verify
  }

  function verifierFor(read: ReturnType<ProjectConfigSource['read']>): Verify | null {
    if (read.errors.length > 0) return null
    const oidc = read.config.api_oidc
    const sessionsOn = dashboardOidcEnabled(read.config.dashboard_oidc)
    if (oidc === undefined && !sessionsOn) return null
    const key = JSON.stringify([oidc, sessionsOn])
    if (cached?.key === key) return cached.verify
    const verifier = oidc === undefined ? null : apiOidcVerifier(oidc, options.fetch)
    const verified = verifiedBearers(options.now ?? Date.now)
    const verify: Verify | null =
      verifier === null && !sessionsOn
        ? null
        : async (token) => {
            if (!isJwtShaped(token)) return null
            const known = verified.get(token)
            if (known !== undefined) return known
            if (sessionsOn && options.sessions().isSession(token)) {
              try {
                const payload = await options.sessions().verifier.verify(token)
                return verified.remember(token, principalOfClaims(payload, SESSION_CLAIMS), payload)
              } catch (error) {
                return refuse(error)
              }
            }
            if (verifier === null || oidc === undefined) return null
            try {
              const payload = await verifier.verify(token)
              return verified.remember(token, principalOfClaims(payload, oidc), payload)
            } catch (error) {
              return refuse(error)
            }
          }
    cached = { key, verify }
    return verify
  }
}
