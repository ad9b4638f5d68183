import { sql } from 'kysely'
import type { TaskStatus } from '../engine/types.js'
import type { OrchestratorDb } from './db.js'
import { toAttempt, toTask, type Attempt, type Task } from './domain.js'

/** An attempt with the sprint it belongs to and whether its job is still queued or running (null: no job row). */
export type AttemptFact = Attempt & { sprintId: string; jobActive: boolean | null }

export interface WindowUsage {
  tokens: number
  costMicroUsd: number
  oldestStartedAt: string | null
}

/**
 * Read-only queries behind the insight views (agents, routing, KPIs, evaluation health, limits,
 * debt). Sprints and tasks are shared by every project of the database, so each query is scoped
 * to one project through orch_sprints.project_id.
 */
export function createInsightRepository(db: OrchestratorDb) {
  function attemptsOfProject(projectId: number) {
    return db
      .selectFrom('orch_attempts')
      .innerJoin('orch_tasks', 'orch_tasks.id', 'orch_attempts.task_id')
      .innerJoin('orch_sprints', 'orch_sprints.id', 'orch_tasks.sprint_id')
      .leftJoin('orch_jobs', 'orch_jobs.id', 'orch_attempts.job_id')
      .where('orch_sprints.project_id', '=', projectId)
  }

  return {
    /** Every attempt of the project, oldest first. */
    async attempts(projectId: number, sprintIds?: readonly string[]): Promise<AttemptFact[]> {
      if (sprintIds && sprintIds.length === 0) return []
      let query = attemptsOfProject(projectId).selectAll('orch_attempts').select(['orch_tasks.sprint_id', 'orch_jobs.active as job_active'])
      if (sprintIds) query = query.where('orch_tasks.sprint_id', 'in', [...sprintIds])
      const rows = await query.orderBy('orch_attempts.id').execute()
      return rows.map((row) => ({
        ...toAttempt(row),
        sprintId: row.sprint_id,
        jobActive: row.job_active === null ? null : Number(row.job_active) === 1
      }))
    },

    async tasksOfSprints(sprintIds: readonly string[], statuses?: readonly TaskStatus[]): Promise<Task[]> {
      if (sprintIds.length === 0) return []
      let query = db
        .selectFrom('orch_tasks')
        .selectAll()
        .where('sprint_id', 'in', [...sprintIds])
      if (statuses) query = query.where('status', 'in', [...statuses])
      return (await query.orderBy('sprint_id').orderBy('position').execute()).map(toTask)
    },

    /** Tokens and cost of the attempts started at or after `sinceIso` (ISO-8601 text compares in time order). */
    async usageSince(projectId: number, sinceIso: string): Promise<WindowUsage> {
      const row = await attemptsOfProject(projectId)
        .select([
          sql<number>`coalesce(sum(orch_attempts.input_tokens + orch_attempts.output_tokens), 0)`.as('tokens'),
          sql<number>`coalesce(sum(orch_attempts.cost_micro_usd), 0)`.as('cost'),
          sql<string | null>`min(orch_attempts.started_at)`.as('oldest')
        ])
        .where('orch_attempts.started_at', '>=', sinceIso)
        .executeTakeFirst()
      return { tokens: Number(row?.tokens ?? 0), costMicroUsd: Number(row?.cost ?? 0), oldestStartedAt: row?.oldest ?? null }
    }
  }
}
export type InsightRepository = ReturnType<typeof createInsightRepository>
