import { sql } from 'kysely'
import { isUniqueViolation } from '../../../core/db/errors.js'
import { sprintSources } from '../engine/task-lifecycle.js'
import type { Plan, SprintStatus } from '../engine/types.js'
import type { OrchestratorDb, TaskRow } from './db.js'
import { toSprint, toTask, type Sprint, type Task } from './domain.js'

// 24 columns per task row: 400 rows stay under SQLite's 32 766 and Postgres' 65 535 parameters.
const TASK_INSERT_CHUNK = 400

export interface SprintUsage {
  tokensUsed: number
  costMicroUsd: number
}

/** Sprint ids are text so branch names and log folders can carry them. */
export function sprintIdFor(number: number): string {
  return `s${number}`
}

export function createSprintsRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    /**
     * Stores a planned sprint and all its tasks in one transaction. Sprint and task ids are
     * primary keys of tables shared by every project of the database, so the number is taken
     * after the newest sprint of any project: each project's numbers still only grow, and "s<n>"
     * never collides. Two planners racing for the same number meet the primary key; the loser
     * retries with the next number.
     */
    async createFromPlan(
      projectId: number,
      plan: Plan,
      meta: { title: string; directivesDigest: string | null; context?: string }
    ): Promise<{ sprint: Sprint; tasks: Task[] }> {
      for (let tries = 0; ; tries++) {
        try {
          return await db.transaction().execute(async (trx) => {
            const now = clock().toISOString()
            const last = await trx
              .selectFrom('orch_sprints')
              .select(sql<number | null>`max(number)`.as('number'))
              .executeTakeFirst()
            const number = Number(last?.number ?? 0) + 1
            const sprint = await trx
              .insertInto('orch_sprints')
              .values({
                id: sprintIdFor(number),
                project_id: projectId,
                number,
                title: meta.title,
                status: 'PLANNED',
                planner_mode: plan.mode,
                directives_digest: meta.directivesDigest,
                context: meta.context?.trim() ? meta.context : null,
                warnings: JSON.stringify(plan.warnings),
                stop_reason: null,
                created_at: now,
                started_at: null,
                finished_at: null
              })
              .returningAll()
              .executeTakeFirstOrThrow()
            if (plan.tasks.length === 0) return { sprint: toSprint(sprint), tasks: [] }
            const rows = plan.tasks.map((task, position) => ({
              id: `${sprint.id}-${task.key}`,
              sprint_id: sprint.id,
              key: task.key,
              title: task.title,
              description: task.description,
              status: 'PENDING',
              priority: task.priority,
              agent: task.agent ?? null,
              dependencies: JSON.stringify(task.dependencies),
              files: JSON.stringify(task.files),
              go_criteria: JSON.stringify(task.goCriteria),
              no_go_criteria: JSON.stringify(task.noGoCriteria),
              check_command: task.check === undefined ? null : JSON.stringify(task.check),
              expect_change: task.expectChange ? 1 : 0,
              risk: task.risk ?? null,
              position,
              branch: null,
              worktree: null,
              commit_sha: null,
              reason: null,
              created_at: now,
              updated_at: now,
              started_at: null,
              finished_at: null
            }))
            // One INSERT per chunk: a large plan would exceed the drivers' bound-parameter limit.
            const tasks: TaskRow[] = []
            for (let i = 0; i < rows.length; i += TASK_INSERT_CHUNK) {
              tasks.push(
                ...(await trx
                  .insertInto('orch_tasks')
                  .values(rows.slice(i, i + TASK_INSERT_CHUNK))
                  .returningAll()
                  .execute())
              )
            }
            tasks.sort((a, b) => a.position - b.position)
            return { sprint: toSprint(sprint), tasks: tasks.map(toTask) }
          })
        } catch (error) {
          if (!isUniqueViolation(error) || tries >= 20) throw error
        }
      }
    },

    async get(id: string): Promise<Sprint | undefined> {
      const row = await db.selectFrom('orch_sprints').selectAll().where('id', '=', id).executeTakeFirst()
      return row && toSprint(row)
    },

    async list(projectId: number, limit?: number): Promise<Sprint[]> {
      let query = db.selectFrom('orch_sprints').selectAll().where('project_id', '=', projectId).orderBy('number', 'desc')
      if (limit !== undefined) query = query.limit(limit)
      return (await query.execute()).map(toSprint)
    },

    async latest(projectId: number): Promise<Sprint | undefined> {
      const row = await db
        .selectFrom('orch_sprints')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('number', 'desc')
        .limit(1)
        .executeTakeFirst()
      return row && toSprint(row)
    },

    /**
     * Moves the sprint to `status` from a status the lifecycle table allows (or the narrower
     * `from`), so a stale writer cannot undo a newer state.
     */
    async setStatus(
      id: string,
      status: SprintStatus,
      fields: { stopReason?: string | null; startedAt?: string; finishedAt?: string | null; from?: SprintStatus[] } = {}
    ): Promise<boolean> {
      const from = sprintSources(status, fields.from)
      const query = db
        .updateTable('orch_sprints')
        .set({
          status,
          ...(fields.stopReason !== undefined ? { stop_reason: fields.stopReason } : {}),
          ...(fields.startedAt !== undefined ? { started_at: fields.startedAt } : {}),
          ...(fields.finishedAt !== undefined ? { finished_at: fields.finishedAt } : {})
        })
        .where('id', '=', id)
        .where('status', 'in', from)
      const result = await query.executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /** Adds usage in the statement itself, so concurrent reporters never lose an increment. */
    async addUsage(id: string, tokens: number, costMicroUsd: number): Promise<SprintUsage> {
      const row = await db
        .updateTable('orch_sprints')
        .set({ tokens_used: sql`tokens_used + ${tokens}`, cost_micro_usd: sql`cost_micro_usd + ${costMicroUsd}` })
        .where('id', '=', id)
        .returning(['tokens_used', 'cost_micro_usd'])
        .executeTakeFirstOrThrow()
      return { tokensUsed: Number(row.tokens_used), costMicroUsd: Number(row.cost_micro_usd) }
    },

    async usage(id: string): Promise<SprintUsage> {
      const row = await db
        .selectFrom('orch_sprints')
        .select(['tokens_used', 'cost_micro_usd'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      return { tokensUsed: Number(row.tokens_used), costMicroUsd: Number(row.cost_micro_usd) }
    }
  }
}
export type SprintsRepository = ReturnType<typeof createSprintsRepository>
