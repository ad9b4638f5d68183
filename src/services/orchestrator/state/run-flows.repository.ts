import type { Selectable } from 'kysely'
import type { OrchestratorDb } from './db.js'
import { bumpFlowRevision, createFlowRevisionReader } from './run-flow-revisions.js'

/** Flow states (the reference's run-flow contract); the last four are terminal. */
export const FLOW_STATES = [
  'COLLECTING',
  'PROPOSAL_READY',
  'PREVIEWING',
  'AWAITING_APPROVAL',
  'APPROVED',
  'STARTING',
  'DETACHED_RUNNING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'BLOCKED'
] as const
export type FlowState = (typeof FLOW_STATES)[number]
export const TERMINAL_FLOW_STATES: readonly FlowState[] = ['COMPLETED', 'FAILED', 'CANCELLED', 'BLOCKED']

export const FLOW_EVENT_TYPES = [
  'PROPOSAL_SUBMITTED',
  'PREVIEW_STARTED',
  'PREVIEW_READY',
  'APPROVAL_GRANTED',
  'APPROVAL_REJECTED',
  'START_REQUESTED',
  'RUN_STARTED',
  'RUN_COMPLETED',
  'RUN_FAILED',
  'FLOW_ABORTED'
] as const
export type FlowEventType = (typeof FLOW_EVENT_TYPES)[number]

export interface FlowActor {
  id: string
  role: string
  tenantId: string
  identityClass: string
  assurance: string
  provenance: string
}

export interface RunProposal {
  flowId: string
  tenant: string
  project: string
  actor: FlowActor
  origin: 'api' | 'cli'
  revision: number
  intentSummary: string
}

export interface TaskSummary {
  title: string
  summary: string
}

export interface PlanPreview {
  flowId: string
  revision: number
  planDigest: string
  taskSummaries: TaskSummary[]
  policyDecision: 'allow' | 'deny' | 'needs-approval'
  gateResult: 'pass' | 'fail' | 'skipped'
  /** The files each task is planned to write (its declared scope). */
  writeScopes: { title: string; files: string[] }[]
  warnings: string[]
}

export interface ApprovedPlanSnapshot {
  flowId: string
  revision: number
  planDigest: string
  approvedBy: FlowActor
  approvedAt: string
}

export interface RunFlow {
  flowId: string
  projectId: number
  tenantId: string
  state: FlowState
  revision: number
  intentSummary: string
  proposal: RunProposal
  preview: PlanPreview | null
  planDigest: string | null
  sprintId: string | null
  approvedSnapshot: ApprovedPlanSnapshot | null
  attemptId: string | null
  jobId: number | null
  missionId: string | null
  cancelReason: string | null
  failureReason: string | null
  lastSequence: number
  createdAt: string
  updatedAt: string
}

export type FlowSummary = Pick<RunFlow, 'flowId' | 'state' | 'intentSummary' | 'revision' | 'createdAt' | 'updatedAt'>

export interface FlowEvent {
  schemaVersion: 1
  type: FlowEventType
  flowId: string
  sequence: number
  timestamp: string
  data: Record<string, unknown>
}

interface RunFlowsTable {
  id: string
  project_id: number
  tenant_id: string
  state: string
  revision: number
  intent_summary: string
  proposal: string
  preview: string | null
  plan_digest: string | null
  sprint_id: string | null
  approved: string | null
  attempt_id: string | null
  job_id: number | null
  mission_id: string | null
  cancel_reason: string | null
  failure_reason: string | null
  last_sequence: number
  created_at: string
  updated_at: string
}

interface RunFlowEventsTable {
  flow_id: string
  sequence: number
  type: string
  data: string
  created_at: string
}

type FlowRow = Selectable<RunFlowsTable>

function toFlow(row: FlowRow): RunFlow {
  return {
    flowId: row.id,
    projectId: Number(row.project_id),
    tenantId: row.tenant_id,
    state: row.state as FlowState,
    revision: Number(row.revision),
    intentSummary: row.intent_summary,
    proposal: JSON.parse(row.proposal) as RunProposal,
    preview: row.preview === null ? null : (JSON.parse(row.preview) as PlanPreview),
    planDigest: row.plan_digest,
    sprintId: row.sprint_id,
    approvedSnapshot: row.approved === null ? null : (JSON.parse(row.approved) as ApprovedPlanSnapshot),
    attemptId: row.attempt_id,
    jobId: row.job_id === null ? null : Number(row.job_id),
    missionId: row.mission_id,
    cancelReason: row.cancel_reason,
    failureReason: row.failure_reason,
    lastSequence: Number(row.last_sequence),
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
}

function toEvent(row: Selectable<RunFlowEventsTable>): FlowEvent {
  const data = JSON.parse(row.data) as Record<string, unknown>
  return {
    schemaVersion: 1,
    type: row.type as FlowEventType,
    flowId: row.flow_id,
    sequence: Number(row.sequence),
    timestamp: row.created_at,
    data
  }
}

export interface NewFlow {
  flowId: string
  projectId: number
  tenantId: string
  intentSummary: string
  proposal: RunProposal
  preview: PlanPreview
  sprintId: string
}

/** What a transition changes besides the state (undefined: unchanged). */
export interface FlowChange {
  approved?: ApprovedPlanSnapshot
  attemptId?: string
  jobId?: number
  missionId?: string | null
  cancelReason?: string
  failureReason?: string
}

export interface FlowTransition {
  from: readonly FlowState[]
  to: FlowState
  change?: FlowChange
  /** Appended to the flow's log in the same transaction, in order. */
  events: { type: FlowEventType; data: Record<string, unknown> }[]
}

/**
 * Run flows and their event logs. Every change of state is a compare-and-swap on the flow's
 * current state inside one transaction with its events: of racing callers exactly one moves
 * the flow, and a flow's log never holds an event its state does not reflect.
 */
export function createRunFlowsRepository(base: OrchestratorDb, clock: () => Date) {
  const db = base.withTables<{ orch_run_flows: RunFlowsTable; orch_run_flow_events: RunFlowEventsTable }>()

  return {
    /** The flow list's version (see run-flow-revisions.ts): every write below raises it in its transaction. */
    listRevision: createFlowRevisionReader(base),

    /** Stores a proposed flow with its first events (proposal, preview started, preview ready). */
    async create(input: NewFlow, events: { type: FlowEventType; data: Record<string, unknown> }[]): Promise<RunFlow> {
      const now = clock().toISOString()
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('orch_run_flows')
          .values({
            id: input.flowId,
            project_id: input.projectId,
            tenant_id: input.tenantId,
            state: 'AWAITING_APPROVAL',
            revision: input.proposal.revision,
            intent_summary: input.intentSummary,
            proposal: JSON.stringify(input.proposal),
            preview: JSON.stringify(input.preview),
            plan_digest: input.preview.planDigest,
            sprint_id: input.sprintId,
            approved: null,
            attempt_id: null,
            job_id: null,
            mission_id: null,
            cancel_reason: null,
            failure_reason: null,
            last_sequence: events.length,
            created_at: now,
            updated_at: now
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        if (events.length > 0) {
          await trx
            .insertInto('orch_run_flow_events')
            .values(
              events.map((event, i) => ({
                flow_id: input.flowId,
                sequence: i + 1,
                type: event.type,
                data: JSON.stringify(event.data),
                created_at: now
              }))
            )
            .execute()
        }
        await bumpFlowRevision(trx, input.projectId)
        return toFlow(row)
      })
    },

    async get(projectId: number, flowId: string): Promise<RunFlow | undefined> {
      const row = await db
        .selectFrom('orch_run_flows')
        .selectAll()
        .where('id', '=', flowId)
        .where('project_id', '=', projectId)
        .executeTakeFirst()
      return row && toFlow(row)
    },

    /** A tenant's flows, newest first. */
    async list(projectId: number, tenantId: string | null, limit: number): Promise<RunFlow[]> {
      let query = db.selectFrom('orch_run_flows').selectAll().where('project_id', '=', projectId)
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId)
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
      return rows.map(toFlow)
    },

    /**
     * One page of a tenant's flows as list rows (no JSON columns read), newest first, after the
     * (createdAt, id) of the previous page's last row; `more` says whether another page follows.
     */
    async summaries(
      projectId: number,
      tenantId: string,
      page: { limit: number; after?: { createdAt: string; flowId: string } }
    ): Promise<{ flows: FlowSummary[]; more: boolean }> {
      let query = db
        .selectFrom('orch_run_flows')
        .select(['id', 'state', 'intent_summary', 'revision', 'created_at', 'updated_at'])
        .where('project_id', '=', projectId)
        .where('tenant_id', '=', tenantId)
      const after = page.after
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.flowId)])])
        )
      }
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit + 1)
        .execute()
      const flows = rows.slice(0, page.limit).map((r) => ({
        flowId: r.id,
        state: r.state as FlowState,
        intentSummary: r.intent_summary,
        revision: Number(r.revision),
        createdAt: r.created_at,
        updatedAt: r.updated_at
      }))
      return { flows, more: rows.length > page.limit }
    },

    /** Flows in one of these states (the reconciler's work list). */
    async inStates(projectId: number, states: readonly FlowState[]): Promise<RunFlow[]> {
      const rows = await db
        .selectFrom('orch_run_flows')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('state', 'in', [...states])
        .execute()
      return rows.map(toFlow)
    },

    /** Moves the flow if its state is one of `from`; undefined when another caller moved it first (or it is gone). */
    async transition(flowId: string, t: FlowTransition): Promise<RunFlow | undefined> {
      const now = clock().toISOString()
      const c = t.change ?? {}
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('orch_run_flows')
          .set((eb) => ({
            state: t.to,
            updated_at: now,
            last_sequence: eb('last_sequence', '+', t.events.length),
            ...(c.approved !== undefined ? { approved: JSON.stringify(c.approved) } : {}),
            ...(c.attemptId !== undefined ? { attempt_id: c.attemptId } : {}),
            ...(c.jobId !== undefined ? { job_id: c.jobId } : {}),
            ...(c.missionId !== undefined ? { mission_id: c.missionId } : {}),
            ...(c.cancelReason !== undefined ? { cancel_reason: c.cancelReason } : {}),
            ...(c.failureReason !== undefined ? { failure_reason: c.failureReason } : {})
          }))
          .where('id', '=', flowId)
          .where('state', 'in', [...t.from])
          .returningAll()
          .executeTakeFirst()
        if (!row) return undefined
        const first = Number(row.last_sequence) - t.events.length + 1
        if (t.events.length > 0) {
          await trx
            .insertInto('orch_run_flow_events')
            .values(
              t.events.map((event, i) => ({
                flow_id: flowId,
                sequence: first + i,
                type: event.type,
                data: JSON.stringify(event.data),
                created_at: now
              }))
            )
            .execute()
        }
        await bumpFlowRevision(trx, Number(row.project_id))
        return toFlow(row)
      })
    },

    /** The flow's events after a sequence, oldest first. */
    async events(flowId: string, afterSequence: number, limit = 500): Promise<FlowEvent[]> {
      const rows = await db
        .selectFrom('orch_run_flow_events')
        .selectAll()
        .where('flow_id', '=', flowId)
        .where('sequence', '>', afterSequence)
        .orderBy('sequence')
        .limit(limit)
        .execute()
      return rows.map(toEvent)
    }
  }
}
export type RunFlowsRepository = ReturnType<typeof createRunFlowsRepository>
