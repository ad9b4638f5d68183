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

export interface Principal {
  /** Stable identity: `api-static` for the API token's owner, `cli:<user>`, `engine`. */
  id: string
  /** How records a human reads name the caller (decisions): the token's fingerprint, the OS user. */
  label: string
  tenantId: string
  /** false: the tenant is the local project's default, not a verified claim. */
  tenantClaimed: boolean
  role: Role
  channel: Channel
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
