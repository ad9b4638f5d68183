/**
 * The audit trail of the HTTP API: every mutating route, every denial (401, 403, 429) and every
 * sensitive read is appended to the audit chain before the answer leaves. The actor and tenant are
 * the verified caller's (`anonymous` when no bearer was verified), never a body field.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { authenticatedCallerOf } from '../../gates/route-access.js'
import type { AuditService } from './audit.service.js'
import { LOCAL_TENANT } from '../../principal.js'

const AUDIT = Symbol('audit action')
type WithAudit = FastifyRequest & { [AUDIT]?: { action: string; target: string } }

/** Names the action and its target for this request's audit record (enterprise writes and reads). */
export function auditAs(request: FastifyRequest, action: string, target: string): void {
  ;(request as WithAudit)[AUDIT] = { action, target }
}

const DENIED = new Set([401, 403, 429])

function pathOf(url: string): string {
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

export function registerAuditTrail(app: FastifyInstance, deps: { audit: AuditService; onError: (error: unknown) => void }): void {
  // Callback style: most answers (reads) are not audited and leave without a promise per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    const path = pathOf(request.url)
    if (!path.startsWith('/api/')) return done(null, payload)
    const status = reply.statusCode
    const method = request.method
    const route = request.routeOptions.url
    const denied = DENIED.has(status)
    const mutating = route !== undefined && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'
    const sensitive = route !== undefined && request.routeOptions.config?.access?.sensitive === true
    if (!denied && !mutating && !sensitive) return done(null, payload)
    const caller = authenticatedCallerOf(request)
    const named = (request as WithAudit)[AUDIT]
    const params = request.params as Record<string, unknown> | undefined
    const paramTarget = typeof params?.id === 'string' ? params.id : path
    const parked = status === 202 && typeof payload === 'string' && payload.includes('"pending-approval"')
    deps.audit
      .append({
        tenantId: caller?.tenantId ?? LOCAL_TENANT,
        actor: caller?.id ?? 'anonymous',
        action: denied ? 'access:denied' : (named?.action ?? `${method} ${route}`),
        target: denied ? `${method} ${path}` : (named?.target ?? paramTarget),
        result: denied ? 'denied' : status >= 400 ? 'failed' : 'success',
        gate: denied ? 'refused' : parked ? 'approval' : 'allowed',
        status,
        detail: { method, route: route ?? null, requestId: request.id, mode: caller?.mode ?? (caller ? 'static' : 'none') }
      })
      .catch(deps.onError)
      .finally(() => done(null, payload))
  })
}
