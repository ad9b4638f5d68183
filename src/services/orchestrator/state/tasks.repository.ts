import type { Updateable } from 'kysely'
import type { CheckCommand, PlannedTask, Priority, Risk, TaskStatus } from '../engine/types.js'
import type { OrchestratorDb, TaskRow, TasksTable } from './db.js'

/** Fields a status change may record together with the new status. */
export interface TaskTransitionFields {
  reason?: string | null
  attempts?: number
  branch?: string | null
  worktree?: string | null
  commitSha?: string | null
  filesChanged?: string[]
  startedAt?: string | null
  finishedAt?: string | null
}

export type TaskStatusCounts = Partial<Record<TaskStatus, number>>

/** The planner's view of a stored task (what the executor receives). */
export function toPlannedTask(row: TaskRow): PlannedTask {
  return {
    key: row.key,
    title: row.title,
    description: row.description,
    dependencies: JSON.parse(row.dependencies) as string[],
    files: JSON.parse(row.files) as string[],
    goCriteria: JSON.parse(row.go_criteria) as string[],
    noGoCriteria: JSON.parse(row.no_go_criteria) as string[],
    ...(row.agent ? { agent: row.agent } : {}),
    priority: row.priority as Priority,
    ...(row.check_command ? { check: JSON.parse(row.check_command) as CheckCommand } : {}),
    expectChange: row.expect_change === 1,
    ...(row.risk ? { risk: row.risk as Risk } : {})
  }
}

export function createTasksRepository(db: OrchestratorDb, clock: () => Date) {
  function changes(to: TaskStatus, fields: TaskTransitionFields): Updateable<TasksTable> {
    return {
      status: to,
      updated_at: clock().toISOString(),
      ...(fields.reason !== undefined ? { reason: fields.reason } : {}),
      ...(fields.attempts !== undefined ? { attempts: fields.attempts } : {}),
      ...(fields.branch !== undefined ? { branch: fields.branch } : {}),
      ...(fields.worktree !== undefined ? { worktree: fields.worktree } : {}),
      ...(fields.commitSha !== undefined ? { commit_sha: fields.commitSha } : {}),
      ...(fields.filesChanged !== undefined ? { files_changed: JSON.stringify(fields.filesChanged) } : {}),
      ...(fields.startedAt !== undefined ? { started_at: fields.startedAt } : {}),
      ...(fields.finishedAt !== undefined ? { finished_at: fields.finishedAt } : {})
    }
  }

  return {
    get(id: string): Promise<TaskRow | undefined> {
      return db.selectFrom('orch_tasks').selectAll().where('id', '=', id).executeTakeFirst()
    },

    listBySprint(sprintId: string, statuses?: readonly TaskStatus[]): Promise<TaskRow[]> {
      let query = db.selectFrom('orch_tasks').selectAll().where('sprint_id', '=', sprintId)
      if (statuses) query = query.where('status', 'in', [...statuses])
      return query.orderBy('position').execute()
    },

    /**
     * Moves one task from one of `from` to `to`. The status test is part of the UPDATE, so of
     * two writers (a job and a kill, or two jobs) exactly one wins; the loser gets false.
     */
    async transition(id: string, from: readonly TaskStatus[], to: TaskStatus, fields: TaskTransitionFields = {}): Promise<boolean> {
      const result = await db
        .updateTable('orch_tasks')
        .set(changes(to, fields))
        .where('id', '=', id)
        .where('status', 'in', [...from])
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /** The same guarded change for every task of a sprint in one of `from`; returns the ids changed. */
    async transitionAll(
      sprintId: string,
      from: readonly TaskStatus[],
      to: TaskStatus,
      fields: TaskTransitionFields = {}
    ): Promise<string[]> {
      const rows = await db
        .updateTable('orch_tasks')
        .set(changes(to, fields))
        .where('sprint_id', '=', sprintId)
        .where('status', 'in', [...from])
        .returning('id')
        .execute()
      return rows.map((r) => r.id).sort()
    },

    async countByStatus(sprintId: string): Promise<TaskStatusCounts> {
      const rows = await db
        .selectFrom('orch_tasks')
        .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
        .where('sprint_id', '=', sprintId)
        .groupBy('status')
        .execute()
      const counts: TaskStatusCounts = {}
      for (const row of rows) counts[row.status as TaskStatus] = Number(row.count)
      return counts
    },

    /** A task only when it belongs to one of the project's sprints (task tables are shared by every project). */
    getInProject(projectId: number, id: string): Promise<TaskRow | undefined> {
      return db
        .selectFrom('orch_tasks')
        .selectAll('orch_tasks')
        .innerJoin('orch_sprints', 'orch_sprints.id', 'orch_tasks.sprint_id')
        .where('orch_sprints.project_id', '=', projectId)
        .where('orch_tasks.id', '=', id)
        .executeTakeFirst()
    },

    /** Task counts by status for every sprint of a project, in one query (history views). */
    async countByStatusPerSprint(projectId: number): Promise<Map<string, TaskStatusCounts>> {
      const rows = await db
        .selectFrom('orch_tasks')
        .innerJoin('orch_sprints', 'orch_sprints.id', 'orch_tasks.sprint_id')
        .select(['orch_tasks.sprint_id', 'orch_tasks.status', (eb) => eb.fn.countAll<number>().as('count')])
        .where('orch_sprints.project_id', '=', projectId)
        .groupBy(['orch_tasks.sprint_id', 'orch_tasks.status'])
        .execute()
      const perSprint = new Map<string, TaskStatusCounts>()
      for (const row of rows) {
        const counts = perSprint.get(row.sprint_id) ?? {}
        counts[row.status as TaskStatus] = Number(row.count)
        perSprint.set(row.sprint_id, counts)
      }
      return perSprint
    }
  }
}
export type TasksRepository = ReturnType<typeof createTasksRepository>
