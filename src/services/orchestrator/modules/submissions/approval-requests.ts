/**
 * Process parking, missions and the RPC approval methods talk to approvals through
 * `ApprovalRequests`, a view of the approvals module's one store: a parked submission's request is
 * the same row `GET /api/approvals`, the CLI and the MCP inbox show, masked and with its raw
 * arguments kept aside exactly as every other request. Each call names the tenant it acts for.
 */
import { isAppError } from '../../../../core/errors/app-error.js'
import type { Principal } from '../../principal.js'
import { closureOf, type ApprovalEntryView, type Closure } from '../approvals/approvals.render.js'
import type { ApprovalsService } from '../approvals/approvals.service.js'

export type ApprovalDecision = 'allow' | 'deny' | 'defer' | 'escalate'
export const APPROVAL_DECISIONS: readonly ApprovalDecision[] = ['allow', 'deny', 'defer', 'escalate']
export type ApprovalCategory = 'pending' | 'approved' | 'denied' | 'expired'

export interface ApprovalRequestInput {
  tenantId: string
  /** What the request is about (the execution id for a parked submission). */
  scopeId: string
  summary: string
  risk: string
  details: Record<string, unknown>
  requestedBy: string
}

export interface ApprovalEntry {
  id: string
  category: ApprovalCategory
  /** What the waiting work does: allow, deny (an expiry applies its default action), or null while pending. */
  effect: 'allow' | 'deny' | null
  scopeId: string | null
  summary: string
  risk: string
  maskedArgs: Record<string, unknown>
  createdAt: string
  expiresAt: string
  decision: { decision: ApprovalDecision; decidedBy: string; reason: string; decidedAt: string; channel: string } | null
  /** The masked request as `GET /api/approvals` serialises it (RPC entries carry it). */
  request: ApprovalEntryView['request']
}

export type DecideOutcome =
  | { ok: true; idempotent: boolean; entry: ApprovalEntry }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'not-pending'; category: ApprovalCategory; closure: Closure; why: string }

export interface ApprovalRequests {
  create(input: ApprovalRequestInput): Promise<{ id: string }>
  get(tenantId: string, id: string): Promise<ApprovalEntry | null>
  list(tenantId: string, scopeId?: string): Promise<ApprovalEntry[]>
  /** The caller decides in its own tenant (channel rpc); the approvals service applies the decision policy. */
  decide(
    caller: Principal,
    id: string,
    input: { decision: ApprovalDecision; reason?: string; idempotencyKey?: string }
  ): Promise<DecideOutcome>
}

const NOT_FOUND = new Set(['ORCH_APPROVAL_NOT_FOUND', 'ORCH_APPROVAL_INVALID_ID'])
const NOT_PENDING = new Set(['ORCH_APPROVAL_DECIDED', 'ORCH_APPROVAL_EXPIRED', 'ORCH_APPROVAL_SUPERSEDED', 'ORCH_IDEMPOTENCY_CONFLICT'])

function entryOf(view: ApprovalEntryView): ApprovalEntry {
  const r = view.request
  const d = view.decision
  return {
    id: r.id,
    category: view.category,
    effect: view.effect,
    scopeId: r.scopeId,
    summary: r.summary,
    risk: r.risk,
    maskedArgs: r.maskedArgs as Record<string, unknown>,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    decision: d
      ? { decision: d.decision as ApprovalDecision, decidedBy: d.decidedBy, reason: d.reason, decidedAt: d.decidedAt, channel: d.channel }
      : null,
    request: r
  }
}

/** The port over the approvals module's service (channel `rpc` for its decisions). */
export function createApprovalRequests(service: ApprovalsService): ApprovalRequests {
  async function find(tenantId: string, id: string): Promise<ApprovalEntryView | null> {
    try {
      return await service.forTenant(tenantId).get(id)
    } catch (error) {
      if (isAppError(error) && NOT_FOUND.has(error.code)) return null
      throw error
    }
  }

  return {
    async create(input) {
      const entry = await service.forTenant(input.tenantId).request({
        requesterKind: 'process',
        requesterId: `process:${input.requestedBy}`,
        summary: input.summary,
        scope: 'lifecycle',
        risk: input.risk,
        scopeId: input.scopeId,
        args: input.details
      })
      return { id: entry.request.id }
    },

    async get(tenantId, id) {
      const view = await find(tenantId, id)
      return view ? entryOf(view) : null
    },

    async list(tenantId, scopeId) {
      return (await service.forTenant(tenantId).list(scopeId)).map((view) => entryOf(view))
    },

    async decide(caller, id, input) {
      const tenantId = caller.tenantId
      try {
        const result = await service.forTenant(tenantId).decide(caller, {
          id,
          decision: input.decision,
          reason: input.reason,
          channel: 'rpc',
          idempotencyKey: input.idempotencyKey ?? null
        })
        const view = await find(tenantId, id)
        return { ok: true, idempotent: result.idempotent, entry: entryOf(view!) }
      } catch (error) {
        if (!isAppError(error)) throw error
        if (NOT_FOUND.has(error.code)) return { ok: false, reason: 'not-found' }
        if (!NOT_PENDING.has(error.code)) throw error
        const view = await find(tenantId, id)
        if (!view) return { ok: false, reason: 'not-found' }
        const closed = closureOf(view) ?? { closure: 'decided' as const, text: error.message }
        return { ok: false, reason: 'not-pending', category: view.category, closure: closed.closure, why: closed.text }
      }
    }
  }
}
