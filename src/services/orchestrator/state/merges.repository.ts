import type { Selectable } from 'kysely'
import type { OrchestratorDb } from './db.js'

export type MergeStrategy = 'merge' | 'squash' | 'rebase'
export type MergeStatus = 'running' | 'done' | 'failed' | 'interrupted'
/** RESOLVED: an agent resolved the task's conflict on its branch; it lands on a later run, after a person reviewed it. */
export type MergeItemStatus = 'QUEUED' | 'MERGING' | 'MERGED' | 'CONFLICT' | 'CHECK_FAILED' | 'SKIPPED' | 'INTERRUPTED' | 'RESOLVED'

export interface MergeItem {
  position: number
  taskId: string
  status: MergeItemStatus
  files: string[]
  commitSha: string | null
  reason: string | null
  updatedAt: string
}

/** A task's newest agent resolution: the run and place that recorded it, and the resolved commit. */
export interface RecordedResolution {
  mergeId: string
  position: number
  target: string
  commitSha: string
  files: string[]
  reason: string | null
  /** A newer run merged the task since (the resolution landed, or the task landed another way). */
  mergedSince: boolean
}

export interface MergeRun {
  id: string
  projectId: number
  sprintId: string
  target: string
  strategy: MergeStrategy
  status: MergeStatus
  pid: number | null
  hostname: string | null
  error: string | null
  createdAt: string
  finishedAt: string | null
  items: MergeItem[]
}

interface MergesTable {
  id: string
  project_id: number
  sprint_id: string
  target: string
  strategy: string
  status: string
  pid: number | null
  hostname: string | null
  error: string | null
  created_at: string
  finished_at: string | null
}

interface MergeItemsTable {
  merge_id: string
  position: number
  task_id: string
  status: string
  files: string
  commit_sha: string | null
  reason: string | null
  updated_at: string
}

function toItem(row: Selectable<MergeItemsTable>): MergeItem {
  return {
    position: Number(row.position),
    taskId: row.task_id,
    status: row.status as MergeItemStatus,
    files: JSON.parse(row.files) as string[],
    commitSha: row.commit_sha,
    reason: row.reason,
    updatedAt: row.updated_at
  }
}

/** Merge-queue runs and their items (one per task, in queue order). */
export function createMergesRepository(base: OrchestratorDb, clock: () => Date) {
  const db = base.withTables<{ orch_merges: MergesTable; orch_merge_items: MergeItemsTable }>()

  async function get(projectId: number, id: string): Promise<MergeRun | undefined> {
    const row = await db.selectFrom('orch_merges').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst()
    if (!row) return undefined
    const items = await db.selectFrom('orch_merge_items').selectAll().where('merge_id', '=', id).orderBy('position').execute()
    return {
      id: row.id,
      projectId: Number(row.project_id),
      sprintId: row.sprint_id,
      target: row.target,
      strategy: row.strategy as MergeStrategy,
      status: row.status as MergeStatus,
      pid: row.pid === null ? null : Number(row.pid),
      hostname: row.hostname,
      error: row.error,
      createdAt: row.created_at,
      finishedAt: row.finished_at,
      items: items.map(toItem)
    }
  }

  return {
    get,

    /** Newest first (created_at, then id, both descending); `before` is the id of the last run of the previous page. */
    async list(projectId: number, page: { limit: number; before?: string }): Promise<{ runs: MergeRun[]; next: string | null }> {
      let query = db.selectFrom('orch_merges').select(['id', 'created_at']).where('project_id', '=', projectId)
      if (page.before !== undefined) {
        const cursor = await db
          .selectFrom('orch_merges')
          .select(['id', 'created_at'])
          .where('id', '=', page.before)
          .where('project_id', '=', projectId)
          .executeTakeFirst()
        if (!cursor) return { runs: [], next: null }
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', cursor.created_at), eb.and([eb('created_at', '=', cursor.created_at), eb('id', '<', cursor.id)])])
        )
      }
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit + 1)
        .execute()
      const runs: MergeRun[] = []
      for (const row of rows.slice(0, page.limit)) runs.push((await get(projectId, row.id))!)
      return { runs, next: rows.length > page.limit ? runs[runs.length - 1]!.id : null }
    },

    /**
     * Queues a run unless one of the project is running (then null): the check and the insert are one step, so of two merges
     * started at once exactly one runs. A no-op update of the project's row takes the lock first (the row lock on
     * PostgreSQL, the write lock on SQLite), and the running run is looked for only after it.
     */
    async createIfIdle(input: {
      id: string
      projectId: number
      sprintId: string
      target: string
      strategy: MergeStrategy
      pid: number
      hostname: string
      taskIds: string[]
    }): Promise<MergeRun | null> {
      const now = clock().toISOString()
      const created = await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('orch_projects')
          .set((eb) => ({ root: eb.ref('root') }))
          .where('id', '=', input.projectId)
          .execute()
        const active = await trx
          .selectFrom('orch_merges')
          .select('id')
          .where('project_id', '=', input.projectId)
          .where('status', '=', 'running')
          .executeTakeFirst()
        if (active) return false
        await trx
          .insertInto('orch_merges')
          .values({
            id: input.id,
            project_id: input.projectId,
            sprint_id: input.sprintId,
            target: input.target,
            strategy: input.strategy,
            status: 'running',
            pid: input.pid,
            hostname: input.hostname,
            error: null,
            created_at: now,
            finished_at: null
          })
          .execute()
        if (input.taskIds.length > 0) {
          await trx
            .insertInto('orch_merge_items')
            .values(
              input.taskIds.map((taskId, position) => ({
                merge_id: input.id,
                position,
                task_id: taskId,
                status: 'QUEUED',
                files: '[]',
                commit_sha: null,
                reason: null,
                updated_at: now
              }))
            )
            .execute()
        }
        return true
      })
      return created ? (await get(input.projectId, input.id))! : null
    },

    async setItem(
      mergeId: string,
      position: number,
      change: { status: MergeItemStatus; files?: string[]; commitSha?: string | null; reason?: string | null }
    ) {
      await db
        .updateTable('orch_merge_items')
        .set({
          status: change.status,
          updated_at: clock().toISOString(),
          ...(change.files !== undefined ? { files: JSON.stringify(change.files) } : {}),
          ...(change.commitSha !== undefined ? { commit_sha: change.commitSha } : {}),
          ...(change.reason !== undefined ? { reason: change.reason } : {})
        })
        .where('merge_id', '=', mergeId)
        .where('position', '=', position)
        .execute()
    },

    /** Ends a run once (compare-and-swap on `running`). */
    async finish(mergeId: string, status: Exclude<MergeStatus, 'running'>, error: string | null): Promise<boolean> {
      const result = await db
        .updateTable('orch_merges')
        .set({ status, error, finished_at: clock().toISOString() })
        .where('id', '=', mergeId)
        .where('status', '=', 'running')
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    async running(projectId: number): Promise<MergeRun[]> {
      const rows = await db
        .selectFrom('orch_merges')
        .select('id')
        .where('project_id', '=', projectId)
        .where('status', '=', 'running')
        .execute()
      const runs: MergeRun[] = []
      for (const row of rows) runs.push((await get(projectId, row.id))!)
      return runs
    },

    /** The newest RESOLVED item of a task in this project (newest run first), if any. */
    async latestResolution(projectId: number, taskId: string): Promise<RecordedResolution | undefined> {
      const row = await db
        .selectFrom('orch_merge_items as i')
        .innerJoin('orch_merges as m', 'm.id', 'i.merge_id')
        .select(['i.merge_id', 'i.position', 'm.target', 'm.created_at', 'i.commit_sha', 'i.files', 'i.reason'])
        .where('m.project_id', '=', projectId)
        .where('i.task_id', '=', taskId)
        .where('i.status', '=', 'RESOLVED')
        .where('i.commit_sha', 'is not', null)
        .orderBy('m.created_at', 'desc')
        .orderBy('m.id', 'desc')
        .limit(1)
        .executeTakeFirst()
      if (!row) return undefined
      const merged = await db
        .selectFrom('orch_merge_items as i')
        .innerJoin('orch_merges as m', 'm.id', 'i.merge_id')
        .select('i.merge_id')
        .where('m.project_id', '=', projectId)
        .where('i.task_id', '=', taskId)
        .where('i.status', '=', 'MERGED')
        .where((eb) =>
          eb.or([eb('m.created_at', '>', row.created_at), eb.and([eb('m.created_at', '=', row.created_at), eb('m.id', '>', row.merge_id)])])
        )
        .limit(1)
        .executeTakeFirst()
      return {
        mergeId: row.merge_id,
        position: Number(row.position),
        target: row.target,
        commitSha: row.commit_sha!,
        files: JSON.parse(row.files) as string[],
        reason: row.reason,
        mergedSince: merged !== undefined
      }
    },

    /** Items of a run still queued or in progress become INTERRUPTED (the run's process died). */
    async interruptOpenItems(mergeId: string, reason: string): Promise<void> {
      await db
        .updateTable('orch_merge_items')
        .set({ status: 'INTERRUPTED', reason, updated_at: clock().toISOString() })
        .where('merge_id', '=', mergeId)
        .where('status', 'in', ['QUEUED', 'MERGING'])
        .execute()
    }
  }
}
export type MergesRepository = ReturnType<typeof createMergesRepository>
