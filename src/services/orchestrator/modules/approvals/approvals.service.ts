/**
 * The rules of approvals: how a request is recorded (masked, raw arguments aside), how it is
 * decided (once, attributably, idempotently, never by its requester), how it expires (its
 * default action, channel `ttl-expire`) and how a waiter learns the outcome. Every method works
 * on the database alone, so the server, the CLI and a detached job share one truth.
 *
 * A service is scoped to one tenant: every read and decision sees only that tenant's requests
 * (another tenant's id is "not found"). Only the expiry sweep works across tenants.
 */
import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { orchestratorError } from '../../errors.js'
import type { AccessPolicy } from '../../policy.js'
import { LOCAL_TENANT, type Principal } from '../../principal.js'
import type { ProjectConfig } from '../../project/config-schema.js'
import type { HistoryFilter, NewApproval } from '../../state/approvals.repository.js'
import { categoryOf, TTL_EXPIRE_CHANNEL, type Approval, type ApprovalDecisionValue } from '../../state/domain.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import { maskArguments, maskText } from './masking.js'
import { writeRawArgs } from './raw-args.js'
import { closureOf, renderEntry, renderHistoryEntry, type ApprovalEntryView, type ApprovalHistoryEntry } from './approvals.render.js'

// One masking for every approval request (process submissions' too).
export { maskArguments, maskText } from './masking.js'

/**
 * A well-formed id: what could name a request (ours are `apr_…`/`apr-…`, other writers' may be
 * dotted). A well-formed id nobody issued is unknown (404), as in the original; only ids that
 * could not name anything (separators, `..`, control bytes, over 128 characters) are invalid (400).
 */
export const APPROVAL_ID = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
export { TTL_EXPIRE_CHANNEL } from '../../state/domain.js'
const POLL_MS = 200

export interface ApprovalsServiceDeps {
  repositories: Pick<OrchestratorRepositories, 'approvals'>
  projectId: number
  dataDir: string
  clock: () => Date
  newId: () => string
  /** Read per call: the config file may change while the server runs. */
  approvalConfig: () => ProjectConfig['approval']
  /** Whether an API caller may decide (approval.api_decide). */
  policy: Pick<AccessPolicy, 'assertApiDecide'>
  /**
   * The tenant whose requests this service sees. The CLI and the engine's jobs act for the local
   * project, hence the default; the server scopes per request with `forTenant(principal.tenantId)`.
   */
  tenantId?: string
  /** Told, after the write, of every request this process closed (decided or expired), so what waits on it can move on. */
  onClosed?: (closed: ClosedApproval) => Promise<void>
  /** Told, after the write, of every request this process recorded (an agent's request parks its task). */
  onRequested?: (requested: Approval) => Promise<void>
}

export interface ClosedApproval {
  id: string
  tenantId: string
  requesterKind: string
  taskId: string | null
}

export interface ApprovalRequestInput {
  requesterKind: NewApproval['requesterKind']
  requesterId: string
  summary: string
  scope: string
  risk: string
  policy?: string
  taskId?: string | null
  /** What the request is about when it is not a task (a parked submission's execution id). */
  scopeId?: string | null
  toolName?: string | null
  args: unknown
}

export interface DecideInput {
  id: string
  decision: ApprovalDecisionValue
  reason?: string | undefined
  /** How the decision arrived: api, rpc, cli, withdrawn … (the decider is the caller's label). */
  channel: string
  idempotencyKey?: string | null
}

export interface DecideResult {
  success: true
  decision: NonNullable<ApprovalEntryView['decision']>
  idempotent: boolean
}

function digestOf(decision: string, reason: string): string {
  return createHash('sha256').update(JSON.stringify({ decision, reason })).digest('hex')
}

export function assertApprovalId(id: string): void {
  if (!APPROVAL_ID.test(id)) throw orchestratorError('ORCH_APPROVAL_INVALID_ID')
}

export function createApprovalsService(deps: ApprovalsServiceDeps): ApprovalsService {
  const repo = deps.repositories.approvals
  const tenantId = deps.tenantId ?? LOCAL_TENANT
  const now = () => deps.clock().toISOString()

  async function load(id: string): Promise<Approval> {
    assertApprovalId(id)
    const approval = await repo.get(deps.projectId, tenantId, id)
    if (!approval) throw orchestratorError('ORCH_APPROVAL_NOT_FOUND')
    return approval
  }

  async function closed(approval: Approval): Promise<void> {
    await deps.onClosed?.({ id: approval.id, tenantId: approval.tenantId, requesterKind: approval.requesterKind, taskId: approval.taskId })
  }

  /** Closes one undecided, past-due request with its default action; false when someone else closed it. */
  async function expire(row: Approval): Promise<boolean> {
    const at = now()
    const won = await repo.decide(
      row.id,
      {
        decision: row.defaultAction,
        decidedBy: 'system:ttl',
        channel: TTL_EXPIRE_CHANNEL,
        decidedAt: at,
        reason: `expired without a decision; default action ${row.defaultAction}`,
        closureReason: 'expired',
        idempotencyKey: null,
        decisionDigest: null
      },
      { now: at, allowExpired: true }
    )
    if (won) await closed(row)
    return won
  }

  /**
   * The answer for a request that is already closed (a replay of the same key and body is the same
   * answer): otherwise a 409 that says how it was closed — decided, expired or superseded — and why.
   */
  function closedAnswer(row: Approval, input: DecideInput, digest: string): DecideResult {
    if (row.decision !== null && input.idempotencyKey && row.idempotencyKey === input.idempotencyKey) {
      if (row.decisionDigest !== digest) throw orchestratorError('ORCH_IDEMPOTENCY_CONFLICT')
      return { success: true, decision: renderEntry(row, now()).decision!, idempotent: true }
    }
    const closed = closureOf(renderEntry(row, now()))
    const message = `The approval request ${row.id} is closed: ${closed?.text ?? 'no longer pending'}.`
    if (closed?.closure === 'expired') throw orchestratorError('ORCH_APPROVAL_EXPIRED', message)
    if (closed?.closure === 'superseded') throw orchestratorError('ORCH_APPROVAL_SUPERSEDED', message)
    throw orchestratorError('ORCH_APPROVAL_DECIDED', message)
  }

  return {
    tenantId,

    /** Refuses a caller that may not decide (an API caller while approval.api_decide is off). */
    assertDecider(caller: Principal): void {
      deps.policy.assertApiDecide(caller)
    },

    /** The same store seen by another tenant (the server's per-request scope). */
    forTenant(other: string): ApprovalsService {
      return createApprovalsService({ ...deps, tenantId: other })
    },

    async request(input: ApprovalRequestInput): Promise<ApprovalEntryView> {
      const config = deps.approvalConfig()
      const id = deps.newId()
      const createdAt = deps.clock()
      const maskedArgs = await maskArguments(input.args ?? {})
      // The raw copy is kept only when masking hid something: the masked one says everything else.
      const hidden = JSON.stringify(maskedArgs) !== JSON.stringify(input.args ?? {})
      const rawRef = hidden ? writeRawArgs(deps.dataDir, id, input.args) : null
      const row = await repo.create({
        id,
        projectId: deps.projectId,
        tenantId,
        scopeId: input.scopeId ?? null,
        taskId: input.taskId ?? null,
        requesterKind: input.requesterKind,
        requesterId: input.requesterId,
        summary: (await maskText(input.summary)).slice(0, 200),
        scope: input.scope,
        risk: input.risk,
        policy: input.policy ?? 'require-approval',
        defaultAction: config.expiry_action,
        toolName: input.toolName ?? null,
        maskedArgs,
        rawArgsRef: rawRef,
        createdAt: createdAt.toISOString(),
        expiresAt: new Date(createdAt.getTime() + config.default_expiry_seconds * 1000).toISOString()
      })
      await deps.onRequested?.(row)
      return renderEntry(row, now())
    },

    async overview(): Promise<Record<'pending' | 'approved' | 'denied' | 'expired', ApprovalEntryView[]>> {
      const at = now()
      const groups = {
        pending: [] as ApprovalEntryView[],
        approved: [] as ApprovalEntryView[],
        denied: [] as ApprovalEntryView[],
        expired: [] as ApprovalEntryView[]
      }
      for (const row of await repo.listRecent(deps.projectId, tenantId)) groups[categoryOf(row, at)].push(renderEntry(row, at))
      return groups
    },

    async pending(): Promise<ApprovalEntryView[]> {
      const at = now()
      return (await repo.listPending(deps.projectId, tenantId, at)).map((row) => renderEntry(row, at))
    },

    /** The newest requests of every category, optionally only those about `scopeId`. */
    async list(scopeId?: string): Promise<ApprovalEntryView[]> {
      const at = now()
      return (await repo.listRecent(deps.projectId, tenantId, scopeId)).map((row) => renderEntry(row, at))
    },

    /**
     * The newest risk-gate request of a task (the engine's, not an agent's in-run requests), whatever
     * its state: a resumed task rejoins or reuses it instead of asking twice.
     */
    async latestForTask(taskId: string): Promise<ApprovalEntryView | null> {
      const row = await repo.latestForTask(deps.projectId, tenantId, taskId, 'engine')
      return row ? renderEntry(row, now()) : null
    },

    /**
     * Closes a still-open request without a decision, as superseded (its run stopped, or its sprint
     * was abandoned): `reason` says why. false when it was already closed.
     */
    async supersede(id: string, input: { reason: string; channel: string }): Promise<boolean> {
      const row = await load(id)
      const at = now()
      const won = await repo.supersede(row.id, { channel: input.channel, reason: input.reason, decidedAt: at })
      if (won) await closed(row)
      return won
    },

    async get(id: string): Promise<ApprovalEntryView> {
      return renderEntry(await load(id), now())
    },

    async history(filter: HistoryFilter) {
      const at = now()
      const { approvals, total } = await repo.history(deps.projectId, tenantId, at, filter)
      return {
        entries: approvals.map((approval) => renderHistoryEntry(approval, at)),
        pagination: { total, limit: filter.limit, offset: filter.offset, hasMore: filter.offset + approvals.length < total }
      }
    },

    /**
     * Records the caller's decision. An API caller needs approval.api_decide; the requester can
     * never decide its own request. Concurrent deciders race on one conditional update: exactly one wins.
     */
    async decide(caller: Principal, input: DecideInput): Promise<DecideResult> {
      deps.policy.assertApiDecide(caller)
      const reason = input.reason ?? ''
      const digest = digestOf(input.decision, reason)
      const row = await load(input.id)
      if (row.decision !== null) return closedAnswer(row, input, digest)
      if (row.requesterId === caller.label || row.requesterId === caller.id) throw orchestratorError('ORCH_APPROVAL_SELF_DECISION')
      if (row.expiresAt <= now()) {
        await expire(row)
        throw orchestratorError('ORCH_APPROVAL_EXPIRED')
      }
      const decidedAt = now()
      const won = await repo.decide(
        row.id,
        {
          decision: input.decision,
          decidedBy: caller.label,
          channel: input.channel,
          decidedAt,
          reason,
          closureReason: null,
          idempotencyKey: input.idempotencyKey ?? null,
          decisionDigest: digest
        },
        { now: decidedAt, allowExpired: false }
      )
      const current = await load(input.id)
      if (!won) return closedAnswer(current, input, digest)
      await closed(current)
      return { success: true, decision: renderEntry(current, now()).decision!, idempotent: false }
    },

    /**
     * Waits until the request is closed or `timeoutMs` passes, then answers its entry. Polls the
     * database, because decisions may come from another process (the CLI); a due request is
     * expired here at once rather than at the next sweep.
     */
    async wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<ApprovalEntryView> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        // One instant for the expiry check and the answer: an answer rendered later than the check
        // could call the request expired (and its effect the default action) with nothing recorded.
        let current = await load(id)
        const at = now()
        if (current.decision === null && current.expiresAt <= at) {
          await expire(current)
          current = await load(id)
        }
        if (current.decision !== null || Date.now() >= deadline || signal?.aborted) return renderEntry(current, at)
        await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), undefined, signal ? { signal } : {}).catch(() => {})
      }
    },

    /** Closes every past-due request of the project, of every tenant, with its default action; answers how many. */
    async sweepExpired(): Promise<number> {
      let closed = 0
      for (const row of await repo.listDue(deps.projectId, now())) if (await expire(row)) closed++
      return closed
    }
  }
}
export interface ApprovalsService {
  readonly tenantId: string
  assertDecider(caller: Principal): void
  forTenant(tenantId: string): ApprovalsService
  request(input: ApprovalRequestInput): Promise<ApprovalEntryView>
  overview(): Promise<Record<'pending' | 'approved' | 'denied' | 'expired', ApprovalEntryView[]>>
  pending(): Promise<ApprovalEntryView[]>
  list(scopeId?: string): Promise<ApprovalEntryView[]>
  latestForTask(taskId: string): Promise<ApprovalEntryView | null>
  supersede(id: string, input: { reason: string; channel: string }): Promise<boolean>
  get(id: string): Promise<ApprovalEntryView>
  history(
    filter: HistoryFilter
  ): Promise<{ entries: ApprovalHistoryEntry[]; pagination: { total: number; limit: number; offset: number; hasMore: boolean } }>
  decide(caller: Principal, input: DecideInput): Promise<DecideResult>
  wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<ApprovalEntryView>
  sweepExpired(): Promise<number>
}
