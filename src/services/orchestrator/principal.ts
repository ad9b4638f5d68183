/**
 * Who is calling, for every caller of the orchestrator's services: an HTTP or RPC request that
 * passed the bearer check, the local operator at the CLI, or the engine's own job process. Scope
 * (tenant) and attribution are always taken from here, never from a body, query or path.
 */
export type Role = 'viewer' | 'operator' | 'admin'

/**
 * `api`: a remote caller (HTTP or RPC). The switches that keep control in the terminal
 * (api.control_mutations, approval.api_decide) apply to it and only to it.
 */
export type Channel = 'api' | 'cli' | 'engine'

/** How the caller proved who it is: the API token, a verified OIDC token, or being this machine's process. */
export type AuthMode = 'static' | 'oidc' | 'local'

export interface Principal {
  /** Stable identity: `api-static` for the API token's owner, `cli:<user>`, `engine`. */
  id: string
  /** How records a human reads name the caller (decisions): the token's fingerprint, the OS user. */
  label: string
  tenantId: string
  /** false: the tenant is the local project's default, not a verified claim. */
  tenantClaimed: boolean
  /** The built-in tier the caller's roles reach (a custom role alone is `viewer`). */
  role: Role
  channel: Channel
  /** Absent: `static` for `api`, `local` for the CLI and the engine. */
  mode?: AuthMode
  /** Role names from verified claims (built-in or custom); their permissions are resolved per request. */
  roles?: readonly string[]
  /** Identity claims shown by GET /api/auth/me (verified, never parsed unverified). */
  claims?: { sub?: string; email?: string; name?: string; preferredUsername?: string }
  /** When the caller signed in at the issuer (`auth_time`, else `iat`), seconds since the epoch. */
  authTime?: number
}

export const BUILT_IN_ROLES: readonly Role[] = ['viewer', 'operator', 'admin']

/** The built-in permission matrix: viewer ⊂ operator ⊂ admin (a custom role of the same name replaces one). */
export const BUILT_IN_PERMISSIONS: Readonly<Record<Role, readonly string[]>> = {
  viewer: ['read', 'sprint:read'],
  operator: ['read', 'sprint:read', 'write', 'execute', 'sprint:write', 'audit:read', 'flow:manage'],
  admin: ['read', 'sprint:read', 'write', 'execute', 'sprint:write', 'audit:read', 'flow:manage', 'admin', 'audit', 'tenant:admin']
}

export function isBuiltInRole(name: string): name is Role {
  return (BUILT_IN_ROLES as readonly string[]).includes(name)
}

/** The highest built-in tier among role names (viewer when none is built in). */
export function tierOf(roles: readonly string[]): Role {
  if (roles.includes('admin')) return 'admin'
  if (roles.includes('operator')) return 'operator'
  return 'viewer'
}

/** Whether the caller authenticated with a verified OIDC token (not the API token or this machine). */
export function isOidc(principal: Principal): boolean {
  return principal.mode === 'oidc'
}

/** The tenant of callers without a tenant claim (one local project). */
export const LOCAL_TENANT = 'local'

/** The API token's owner: the project owner (admin) in the local tenant. */
export function tokenPrincipal(label: string): Principal {
  return { id: 'api-static', label, tenantId: LOCAL_TENANT, tenantClaimed: false, role: 'admin', channel: 'api' }
}

/** The operator at a terminal of this machine. */
export function cliPrincipal(user: string): Principal {
  return { id: `cli:${user}`, label: user, tenantId: LOCAL_TENANT, tenantClaimed: false, role: 'admin', channel: 'cli' }
}

/** The engine itself (a detached job acting for the project). */
export const ENGINE_PRINCIPAL: Principal = Object.freeze({
  id: 'engine',
  label: 'engine',
  tenantId: LOCAL_TENANT,
  tenantClaimed: false,
  role: 'admin',
  channel: 'engine'
})
