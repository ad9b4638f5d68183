import type { Static } from 'typebox'
import type { Principal } from '../../principal.js'
import type { Me } from './identity.schemas.js'

/** GET /api/auth/me: who the verified caller is (mode, subject, tenant, role). */
export function renderMe(caller: Principal): Static<typeof Me> {
  const mode = caller.mode ?? (caller.channel === 'api' ? 'static' : 'local')
  return {
    authenticated: true,
    mode,
    subject: caller.id,
    tenant: caller.tenantId,
    tenantClaimed: caller.tenantClaimed,
    role: caller.role,
    roles: [...(caller.roles ?? [caller.role])],
    ...caller.claims
  }
}
