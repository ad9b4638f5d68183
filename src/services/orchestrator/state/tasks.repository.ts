import type { Updateable } from 'kysely'
import { taskSources } from '../engine/task-lifecycle.js'
import type { TaskStatus } from '../engine/types.js'
import type { OrchestratorDb, TasksTable } from './db.js'
import { toTask, type Task, type TaskXverify } from './domain.js'

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

export interface TaskTransition extends TaskTransitionFields {
  /** Narrows the statuses the task may leave (each must be one the lifecycle table allows). */
  from?: readonly TaskStatus[]
}

export type TaskStatusCounts = Partial<Record<TaskStatus, number>>

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

  function withoutFrom(change: TaskTransition): TaskTransitionFields {
    const { from: _from, ...fields } = change
    return fields
  }

  return {
    async get(id: string): Promise<Task | undefined> {
      const row = await db.selectFrom('orch_tasks').selectAll().where('id', '=', id).executeTakeFirst()
      return row && toTask(row)
    },

    /** Records the cross-verify verdict of a task (a later run replaces it); false when the task is unknown. */
    async setXverify(id: string, verdict: TaskXverify): Promise<boolean> {
      const result = await db
        .updateTable('orch_tasks')
        .set({ xverify: JSON.stringify(verdict), updated_at: clock().toISOString() })
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    async listBySprint(sprintId: string, statuses?: readonly TaskStatus[]): Promise<Task[]> {
      let query = db.selectFrom('orch_tasks').selectAll().where('sprint_id', '=', sprintId)
      if (statuses) query = query.where('status', 'in', [...statuses])
      return (await query.orderBy('position').execute()).map(toTask)
    },

    /**
     * Moves one task to `to` from a status the lifecycle table allows (or the narrower `from`).
     * The status test is part of the UPDATE, so of two writers (a job and a kill, or two jobs)
     * exactly one wins; the loser gets false.
     */
    async transition(id: string, to: TaskStatus, change: TaskTransition = {}): Promise<boolean> {
      const from = taskSources(to, change.from)
      const result = await db
        .updateTable('orch_tasks')
        .set(changes(to, withoutFrom(change)))
        .where('id', '=', id)
        .where('status', 'in', from)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /**
     * Records where a running attempt works (its branch and worktree exist from then on) without a
     * status change, so running views show them; false when the task is no longer active.
     */
    async setWorkspace(id: string, workspace: { branch: string | null; worktree: string | null }): Promise<boolean> {
      const result = await db
        .updateTable('orch_tasks')
        .set({ branch: workspace.branch, worktree: workspace.worktree, updated_at: clock().toISOString() })
        .where('id', '=', id)
        .where('status', 'in', ['CLAIMED', 'EXECUTING', 'TESTING'])
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /**
     * AWAITING_APPROVAL → EXECUTING once no approval request of the task is open any more: the
     * test of both tables is part of the UPDATE, so a request recorded meanwhile keeps it waiting,
     * and a task parked by the risk gate (whose own request is open) is never moved.
     */
    async resumeAfterApproval(id: string): Promise<boolean> {
      const from = taskSources('EXECUTING', ['AWAITING_APPROVAL'])
      const result = await db
        .updateTable('orch_tasks')
        .set(changes('EXECUTING', {}))
        .where('id', '=', id)
        .where('status', 'in', from)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('orch_approvals').select('orch_approvals.id').where('task_id', '=', id).where('decision', 'is', null)))
        )
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /** The same guarded change for every task of a sprint; returns the ids changed, sorted. */
    async transitionAll(sprintId: string, to: TaskStatus, change: TaskTransition = {}): Promise<string[]> {
      const from = taskSources(to, change.from)
      const rows = await db
        .updateTable('orch_tasks')
        .set(changes(to, withoutFrom(change)))
        .where('sprint_id', '=', sprintId)
        .where('status', 'in', from)
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
    async getInProject(projectId: number, id: string): Promise<Task | undefined> {
      const row = await db
        .selectFrom('orch_tasks')
        .selectAll('orch_tasks')
        .innerJoin('orch_sprints', 'orch_sprints.id', 'orch_tasks.sprint_id')
        .where('orch_sprints.project_id', '=', projectId)
        .where('orch_tasks.id', '=', id)
        .executeTakeFirst()
      return row && toTask(row)
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
