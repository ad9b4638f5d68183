/**
 * The nervous system's tables (migration 0017), and the read-only views of the engine's tables
 * its detectors watch: running tasks with their attempts and heartbeats, recent task endings, the
 * active sprint's spend.
 */
import { sql, type Kysely, type Selectable } from 'kysely'
import type { AttemptsTable, HeartbeatsTable, JobsTable, SprintsTable, TasksTable } from './db.js'

export type Risk = 'low' | 'medium' | 'high'
export type NervousStatus = 'pending' | 'accepted' | 'rejected' | 'acted'
export type RecommendationStatus = 'open' | 'applied' | 'dismissed'

interface NervousEventsTable {
  id: string
  project_id: number
  tenant_id: string
  type: string
  detector: string
  subject: string
  description: string
  risk: string
  status: string
  dedupe_key: string
  evidence: string
  decided_by: string | null
  created_at: string
  decided_at: string | null
}
interface RecommendationsTable {
  id: string
  project_id: number
  event_id: string
  action: string
  target: string | null
  description: string
  risk: string
  status: string
  outcome: string | null
  created_at: string
  closed_at: string | null
}
export interface NervousTables {
  orch_nervous_events: NervousEventsTable
  orch_nervous_recommendations: RecommendationsTable
  orch_tasks: TasksTable
  orch_jobs: JobsTable
  orch_attempts: AttemptsTable
  orch_heartbeats: HeartbeatsTable
  orch_sprints: SprintsTable
}

export interface NervousEvent {
  id: string
  type: string
  detector: string
  subject: string
  description: string
  risk: Risk
  status: NervousStatus
  evidence: Record<string, unknown>
  createdAt: string
}

export interface Recommendation {
  id: string
  eventId: string
  action: string
  target: string | null
  description: string
  risk: Risk
  status: RecommendationStatus
  outcome: string | null
  createdAt: string
}

export interface RunningTask {
  taskId: string
  sprintId: string
  jobId: number
  startedAt: string
  currentAction: string | null
}

export interface ActiveSprint {
  sprintId: string
  startedAt: string | null
  tokensUsed: number
  costMicroUsd: number
}

export interface NewNervousEvent {
  id: string
  type: string
  detector: string
  subject: string
  description: string
  risk: Risk
  evidence: Record<string, unknown>
  status?: NervousStatus
  recommendation: {
    id: string
    action: string
    target: string | null
    description: string
    risk: Risk
    status?: RecommendationStatus
    outcome?: string
  }
}

const toEvent = (row: Selectable<NervousEventsTable>): NervousEvent => ({
  id: row.id,
  type: row.type,
  detector: row.detector,
  subject: row.subject,
  description: row.description,
  risk: row.risk as Risk,
  status: row.status as NervousStatus,
  evidence: JSON.parse(row.evidence) as Record<string, unknown>,
  createdAt: row.created_at
})

const toRecommendation = (row: Selectable<RecommendationsTable>): Recommendation => ({
  id: row.id,
  eventId: row.event_id,
  action: row.action,
  target: row.target,
  description: row.description,
  risk: row.risk as Risk,
  status: row.status as RecommendationStatus,
  outcome: row.outcome,
  createdAt: row.created_at
})

export function createNervousRepository(db: Kysely<NervousTables>, projectId: number, clock: () => Date) {
  const now = () => clock().toISOString()
  return {
    /** Records an event and its recommendation, unless one for the same detector and subject exists (answers null then). */
    async record(input: NewNervousEvent): Promise<NervousEvent | null> {
      const at = now()
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('orch_nervous_events')
          .values({
            id: input.id,
            project_id: projectId,
            tenant_id: 'local',
            type: input.type,
            detector: input.detector,
            subject: input.subject,
            description: input.description,
            risk: input.risk,
            status: input.status ?? 'pending',
            dedupe_key: `${input.detector}:${input.subject}`,
            evidence: JSON.stringify(input.evidence),
            decided_by: input.status === 'acted' ? 'panic-guard' : null,
            created_at: at,
            decided_at: input.status === 'acted' ? at : null
          })
          .onConflict((oc) => oc.columns(['project_id', 'dedupe_key']).doNothing())
          .executeTakeFirst()
        if (!inserted.numInsertedOrUpdatedRows) return null
        const r = input.recommendation
        await trx
          .insertInto('orch_nervous_recommendations')
          .values({
            id: r.id,
            project_id: projectId,
            event_id: input.id,
            action: r.action,
            target: r.target,
            description: r.description,
            risk: r.risk,
            status: r.status ?? 'open',
            outcome: r.outcome ?? null,
            created_at: at,
            closed_at: r.status && r.status !== 'open' ? at : null
          })
          .execute()
        const row = await trx.selectFrom('orch_nervous_events').selectAll().where('id', '=', input.id).executeTakeFirstOrThrow()
        return toEvent(row)
      })
    },

    async events(status: NervousStatus | null, limit = 200): Promise<NervousEvent[]> {
      let query = db.selectFrom('orch_nervous_events').selectAll().where('project_id', '=', projectId)
      if (status !== null) query = query.where('status', '=', status)
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
      return rows.map(toEvent)
    },

    async event(id: string): Promise<NervousEvent | undefined> {
      const row = await db
        .selectFrom('orch_nervous_events')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row && toEvent(row)
    },

    async decide(id: string, status: 'accepted' | 'rejected', by: string): Promise<boolean> {
      const result = await db
        .updateTable('orch_nervous_events')
        .set({ status, decided_by: by, decided_at: now() })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    async recommendations(all: boolean): Promise<Recommendation[]> {
      let query = db.selectFrom('orch_nervous_recommendations').selectAll().where('project_id', '=', projectId)
      if (!all) query = query.where('status', '=', 'open')
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500).execute()
      return rows.map(toRecommendation)
    },

    async recommendationsOf(eventId: string): Promise<Recommendation[]> {
      const rows = await db
        .selectFrom('orch_nervous_recommendations')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('event_id', '=', eventId)
        .execute()
      return rows.map(toRecommendation)
    },

    async closeRecommendation(id: string, status: 'applied' | 'dismissed', outcome: string | null): Promise<boolean> {
      const result = await db
        .updateTable('orch_nervous_recommendations')
        .set({ status, outcome, closed_at: now() })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /** Tasks being executed by an active job, with their current attempt's start and last heartbeat action. */
    async runningTasks(): Promise<RunningTask[]> {
      const rows = await db
        .selectFrom('orch_tasks as t')
        .innerJoin('orch_jobs as j', (join) => join.onRef('j.sprint_id', '=', 't.sprint_id').on('j.active', '=', 1))
        .leftJoin('orch_heartbeats as h', 'h.task_id', 't.id')
        .select([
          't.id as taskId',
          't.sprint_id as sprintId',
          'j.id as jobId',
          't.started_at as startedAt',
          'h.current_action as currentAction'
        ])
        .where('j.project_id', '=', projectId)
        .where('t.status', 'in', ['EXECUTING', 'TESTING', 'CLAIMED'])
        .execute()
      return rows
        .filter((r) => r.startedAt !== null)
        .map((r) => ({
          taskId: r.taskId,
          sprintId: r.sprintId,
          jobId: Number(r.jobId),
          startedAt: r.startedAt!,
          currentAction: r.currentAction
        }))
    },

    /** Tasks of the active sprint that ended NO_GO, newest first. */
    async noGoTasks(sprintId: string): Promise<{ taskId: string; reason: string | null }[]> {
      const rows = await db
        .selectFrom('orch_tasks')
        .select(['id', 'reason'])
        .where('sprint_id', '=', sprintId)
        .where('status', '=', 'NO_GO')
        .orderBy(sql`finished_at`, 'desc')
        .execute()
      return rows.map((r) => ({ taskId: r.id, reason: r.reason }))
    },

    async activeSprint(): Promise<ActiveSprint | undefined> {
      const row = await db
        .selectFrom('orch_jobs as j')
        .innerJoin('orch_sprints as s', 's.id', 'j.sprint_id')
        .select(['s.id as sprintId', 's.started_at as startedAt', 's.tokens_used as tokensUsed', 's.cost_micro_usd as costMicroUsd'])
        .where('j.project_id', '=', projectId)
        .where('j.active', '=', 1)
        .executeTakeFirst()
      return (
        row && {
          sprintId: row.sprintId,
          startedAt: row.startedAt,
          tokensUsed: Number(row.tokensUsed),
          costMicroUsd: Number(row.costMicroUsd)
        }
      )
    }
  }
}
export type NervousRepository = ReturnType<typeof createNervousRepository>
