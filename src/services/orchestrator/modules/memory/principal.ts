import type { MemoryScope } from './contract.js'

/** The caller as the bearer gate verified it. Today every verified caller is the server's local project principal. */
export interface VerifiedPrincipal {
  id: string
  projectId: number
  tenantId: string | null
}

/** The tenant of callers without a tenant claim (one local project). */
export const LOCAL_TENANT = 'local'

/** The principal of a request that passed the bearer gate of the server of `projectId` (no tenant claims exist yet). */
export function localProjectPrincipal(projectId: number): VerifiedPrincipal {
  return { id: 'api-static', projectId, tenantId: null }
}

/** The read scope follows from the principal alone; nothing in the request can widen or move it. */
export function memoryScopeOf(principal: VerifiedPrincipal): MemoryScope {
  return principal.tenantId === null
    ? { kind: 'local-project', projectId: principal.projectId, tenantId: LOCAL_TENANT }
    : { kind: 'tenant', projectId: principal.projectId, tenantId: principal.tenantId }
}
