import { LOCAL_TENANT, type Principal } from '../../principal.js'
import type { MemoryScope } from './contract.js'

/**
 * The read scope follows from the verified caller alone; nothing in the request can widen or
 * move it. A caller without a tenant claim reads the local project's entries.
 */
export function memoryScopeOf(caller: Principal, projectId: number): MemoryScope {
  return caller.tenantClaimed
    ? { kind: 'tenant', projectId, tenantId: caller.tenantId }
    : { kind: 'local-project', projectId, tenantId: LOCAL_TENANT }
}
