/**
 * Process parking and the RPC approval methods talk to approvals only through
 * `ApprovalRequests`. `createLocalApprovalRequests` keeps them in the tenant-scoped
 * orch_process_approvals table (masked by the approvals module's masking); the approvals module's
 * own store has no tenants yet, so moving them there is the known next step (app.ts wires it).
 */
import type { OrchestratorRepositories } from '../../state/repositories.js'
import type { ProcessApprovalRow } from '../../state/db.js'
import { maskArguments, maskText } from '../approvals/approvals.service.js'

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
  scopeId: string
  summary: string
  risk: string
  maskedArgs: Record<string, unknown>
  createdAt: string
  expiresAt: string
  decision: { decision: ApprovalDecision; decidedBy: string; reason: string; decidedAt: string } | null
}

export type DecideOutcome =
  | { ok: true; idempotent: boolean; entry: ApprovalEntry }
  | { ok: false; reason: 'not-found' } | { ok: false; reason: 'not-pending'; category: ApprovalCategory }

export interface ApprovalRequests {
  create(input: ApprovalRequestInput): Promise<{ id: string }>
  get(tenantId: string, id: string): Promise<ApprovalEntry | null>
  list(tenantId: string, scopeId?: string): Promise<ApprovalEntry[]>
  decide(tenantId: string, id: string, input: { decision: ApprovalDecision; decidedBy: string; reason?: string; idempotencyKey?: string }): Promise<DecideOutcome>
}

export interface LocalApprovalDeps {
  repositories: OrchestratorRepositories
  projectId: number
  clock: () => Date
  newId: () => string
  expirySeconds: () => number
}

export function createLocalApprovalRequests(deps: LocalApprovalDeps): ApprovalRequests {
  const repo = deps.repositories.processApprovals

  function entryOf(row: ProcessApprovalRow): ApprovalEntry {
    const decision = row.decision === null ? null
      : { decision: row.decision as ApprovalDecision, decidedBy: row.decided_by ?? '', reason: row.reason ?? '', decidedAt: row.decided_at ?? '' }
    const category: ApprovalCategory = decision ? (decision.decision === 'allow' ? 'approved' : 'denied')
      : deps.clock().toISOString() >= row.expires_at ? 'expired' : 'pending'
    return {
      id: row.id, category, scopeId: row.scope_id, summary: row.summary, risk: row.risk,
      maskedArgs: JSON.parse(row.details) as Record<string, unknown>, createdAt: row.created_at, expiresAt: row.expires_at, decision
    }
  }

  return {
    async create(input) {
      const expiresAt = new Date(deps.clock().getTime() + deps.expirySeconds() * 1000).toISOString()
      const row = await repo.create({ id: deps.newId(), projectId: deps.projectId, tenantId: input.tenantId, scopeId: input.scopeId, summary: (await maskText(input.summary)).slice(0, 200), risk: input.risk, details: await maskArguments(input.details), requestedBy: input.requestedBy, expiresAt })
      return { id: row.id }
    },

    async get(tenantId, id) {
      const row = await repo.get(deps.projectId, tenantId, id)
      return row ? entryOf(row) : null
    },

    async list(tenantId, scopeId) {
      return (await repo.list(deps.projectId, tenantId, scopeId)).map(entryOf)
    },

    async decide(tenantId, id, input) {
      const row = await repo.get(deps.projectId, tenantId, id)
      if (!row) return { ok: false, reason: 'not-found' }
      const before = entryOf(row)
      if (before.category !== 'pending') {
        // A retry of the same decision with the same key is answered as it was the first time.
        const same = input.idempotencyKey !== undefined && row.idempotency_key === input.idempotencyKey && row.decision === input.decision
        return same ? { ok: true, idempotent: true, entry: before } : { ok: false, reason: 'not-pending', category: before.category }
      }
      const decided = await repo.decide(id, { decision: input.decision, decidedBy: input.decidedBy, reason: input.reason ?? '', idempotencyKey: input.idempotencyKey ?? null })
      const after = entryOf((await repo.get(deps.projectId, tenantId, id))!)
      if (!decided) return { ok: false, reason: 'not-pending', category: after.category }
      return { ok: true, idempotent: false, entry: after }
    }
  }
}
