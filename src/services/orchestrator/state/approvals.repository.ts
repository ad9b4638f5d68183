import type { OrchestratorDb } from './db.js'
import { toApproval, type Approval, type ApprovalDecisionValue } from './domain.js'

export { categoryOf, type ApprovalCategory, type ApprovalDecisionValue } from './domain.js'

/** A request as it is recorded: the approval's fields before any decision. */
export type NewApproval = Pick<
  Approval,
  | 'id'
  | 'projectId'
  | 'tenantId'
  | 'scopeId'
  | 'taskId'
  | 'requesterKind'
  | 'requesterId'
  | 'summary'
  | 'scope'
  | 'risk'
  | 'policy'
  | 'defaultAction'
  | 'toolName'
  | 'maskedArgs'
  | 'rawArgsRef'
  | 'createdAt'
  | 'expiresAt'
>

export interface DecisionWrite {
  decision: ApprovalDecisionValue
  decidedBy: string
  channel: string
  decidedAt: string
  reason: string
  closureReason: string | null
  idempotencyKey: string | null
  decisionDigest: string | null
}

export interface HistoryFilter {
  status: 'all' | 'approved' | 'denied' | 'expired'
  limit: number
  offset: number
}

const SUPERSEDED_BY = 'system:engine'

function supersededBy(write: { channel: string; reason: string; decidedAt: string }) {
  return {
    decision: 'deny' as const,
    decided_by: SUPERSEDED_BY,
    channel: write.channel,
    decided_at: write.decidedAt,
    reason: write.reason,
    closure_reason: 'superseded',
    idempotency_key: null,
    decision_digest: null
  }
}

/**
 * Every read of a tenant's requests is scoped to (project, tenant); only the expiry sweep and the
 * conditional decision (by an id already read within its tenant) work across tenants.
 */
export function createApprovalsRepository(db: OrchestratorDb) {
  const table = () => db.selectFrom('orch_approvals').selectAll()
  const scoped = (projectId: number, tenantId: string) => table().where('project_id', '=', projectId).where('tenant_id', '=', tenantId)

  return {
    async create(approval: NewApproval): Promise<Approval> {
      const row = await db
        .insertInto('orch_approvals')
        .values({
          id: approval.id,
          project_id: approval.projectId,
          tenant_id: approval.tenantId,
          scope_id: approval.scopeId,
          task_id: approval.taskId,
          requester_kind: approval.requesterKind,
          requester_id: approval.requesterId,
          summary: approval.summary,
          scope: approval.scope,
          risk: approval.risk,
          policy: approval.policy,
          default_action: approval.defaultAction,
          tool_name: approval.toolName,
          masked_args: JSON.stringify(approval.maskedArgs),
          raw_args_ref: approval.rawArgsRef,
          created_at: approval.createdAt,
          expires_at: approval.expiresAt,
          decision: null,
          decided_by: null,
          channel: null,
          decided_at: null,
          reason: null,
          closure_reason: null,
          idempotency_key: null,
          decision_digest: null
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toApproval(row)
    },

    async get(projectId: number, tenantId: string, id: string): Promise<Approval | undefined> {
      const row = await scoped(projectId, tenantId).where('id', '=', id).executeTakeFirst()
      return row && toApproval(row)
    },

    /** Undecided requests that have not expired at `now`, oldest first. */
    async listPending(projectId: number, tenantId: string, now: string, limit = 500): Promise<Approval[]> {
      const rows = await scoped(projectId, tenantId)
        .where('decision', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map(toApproval)
    },

    /** The newest requests of every category (the overview), optionally only those about `scopeId`. */
    async listRecent(projectId: number, tenantId: string, scopeId?: string, limit = 500): Promise<Approval[]> {
      let query = scoped(projectId, tenantId)
      if (scopeId !== undefined) query = query.where('scope_id', '=', scopeId)
      return (await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()).map(toApproval)
    },

    /** Closed requests (decided, or undecided past expiry), newest closing first. */
    async history(
      projectId: number,
      tenantId: string,
      now: string,
      filter: HistoryFilter
    ): Promise<{ approvals: Approval[]; total: number }> {
      let query = db.selectFrom('orch_approvals').where('project_id', '=', projectId).where('tenant_id', '=', tenantId)
      switch (filter.status) {
        case 'approved':
          query = query.where('decision', '=', 'allow').where((eb) => eb.or([eb('channel', 'is', null), eb('channel', '!=', 'ttl-expire')]))
          break
        case 'denied':
          query = query
            .where('decision', 'in', ['deny', 'defer', 'escalate'])
            .where((eb) => eb.or([eb('channel', 'is', null), eb('channel', '!=', 'ttl-expire')]))
          break
        case 'expired':
          query = query.where((eb) =>
            eb.or([eb('channel', '=', 'ttl-expire'), eb.and([eb('decision', 'is', null), eb('expires_at', '<=', now)])])
          )
          break
        default:
          query = query.where((eb) => eb.or([eb('decision', 'is not', null), eb('expires_at', '<=', now)]))
      }
      const counted = await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst()
      const rows = await query
        .selectAll()
        .orderBy((eb) => eb.fn.coalesce('decided_at', 'expires_at'), 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit)
        .offset(filter.offset)
        .execute()
      return { approvals: rows.map(toApproval), total: Number(counted?.n ?? 0) }
    },

    /**
     * Records the decision only while the request is still undecided and (unless it is the
     * expiry itself) not yet expired: true for exactly one of any number of concurrent callers.
     */
    async decide(id: string, write: DecisionWrite, options: { now: string; allowExpired: boolean }): Promise<boolean> {
      let query = db
        .updateTable('orch_approvals')
        .set({
          decision: write.decision,
          decided_by: write.decidedBy,
          channel: write.channel,
          decided_at: write.decidedAt,
          reason: write.reason,
          closure_reason: write.closureReason,
          idempotency_key: write.idempotencyKey,
          decision_digest: write.decisionDigest
        })
        .where('id', '=', id)
        .where('decision', 'is', null)
      query = options.allowExpired ? query.where('expires_at', '<=', options.now) : query.where('expires_at', '>', options.now)
      const result = await query.executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /**
     * Closes one undecided request as superseded (deny, decided by the system, closure reason
     * `superseded`), expired or not: true for exactly one of any number of concurrent closers.
     */
    async supersede(id: string, write: { channel: string; reason: string; decidedAt: string }): Promise<boolean> {
      const result = await db
        .updateTable('orch_approvals')
        .set(supersededBy(write))
        .where('id', '=', id)
        .where('decision', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /** Closes every undecided request of these tasks as superseded (an abandoned sprint's); answers their ids. */
    async supersedeForTasks(
      projectId: number,
      taskIds: readonly string[],
      write: { channel: string; reason: string; decidedAt: string }
    ): Promise<string[]> {
      if (taskIds.length === 0) return []
      const rows = await db
        .updateTable('orch_approvals')
        .set(supersededBy(write))
        .where('project_id', '=', projectId)
        .where('task_id', 'in', [...taskIds])
        .where('decision', 'is', null)
        .returning('id')
        .execute()
      return rows.map((row) => row.id)
    },

    /** Undecided requests of the project past their expiry at `now`, of every tenant (the sweep). */
    async listDue(projectId: number, now: string, limit = 500): Promise<Approval[]> {
      const rows = await table()
        .where('project_id', '=', projectId)
        .where('decision', 'is', null)
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute()
      return rows.map(toApproval)
    },

    /** The newest approval request of a task from `requesterKind` (the risk gate asks once per run). */
    async latestForTask(projectId: number, tenantId: string, taskId: string, requesterKind: string): Promise<Approval | undefined> {
      const row = await scoped(projectId, tenantId)
        .where('task_id', '=', taskId)
        .where('requester_kind', '=', requesterKind)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()
      return row && toApproval(row)
    },

    /**
     * The requests a task's agent raised while it ran (every requester but the engine's risk
     * gate), of every tenant, oldest first: the undecided ones, or those created at or after `since`.
     */
    async agentRequestsOfTask(projectId: number, taskId: string, filter: { open: true } | { since: string }): Promise<Approval[]> {
      let query = table().where('project_id', '=', projectId).where('task_id', '=', taskId).where('requester_kind', '!=', 'engine')
      query = 'open' in filter ? query.where('decision', 'is', null) : query.where('created_at', '>=', filter.since)
      return (await query.orderBy('created_at').orderBy('id').execute()).map(toApproval)
    }
  }
}
export type ApprovalsRepository = ReturnType<typeof createApprovalsRepository>
