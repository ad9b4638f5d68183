import { sql } from 'kysely'
import type { OrchestratorDb } from './db.js'
import { toHeartbeat, type Heartbeat } from './domain.js'

export interface Beat {
  workerId: string
  status: string
  currentAction: string
  filesChangedCount: number
}

export function createHeartbeatsRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    /** One row per task; each beat raises its sequence by one, so readers can tell a fresh beat from a repeated one. */
    async upsert(taskId: string, beat: Beat): Promise<Heartbeat> {
      const values = {
        task_id: taskId,
        worker_id: beat.workerId,
        status: beat.status,
        current_action: beat.currentAction,
        files_changed_count: beat.filesChangedCount,
        updated_at: clock().toISOString()
      }
      const row = await db
        .insertInto('orch_heartbeats')
        .values({ ...values, sequence: 1 })
        .onConflict((oc) =>
          oc.column('task_id').doUpdateSet({
            worker_id: values.worker_id,
            status: values.status,
            current_action: values.current_action,
            files_changed_count: values.files_changed_count,
            updated_at: values.updated_at,
            sequence: sql`orch_heartbeats.sequence + 1`
          })
        )
        .returningAll()
        .executeTakeFirstOrThrow()
      return toHeartbeat(row)
    },

    async get(taskId: string): Promise<Heartbeat | undefined> {
      const row = await db.selectFrom('orch_heartbeats').selectAll().where('task_id', '=', taskId).executeTakeFirst()
      return row && toHeartbeat(row)
    },

    async listForSprint(sprintId: string): Promise<Heartbeat[]> {
      const rows = await db
        .selectFrom('orch_heartbeats')
        .selectAll('orch_heartbeats')
        .innerJoin('orch_tasks', 'orch_tasks.id', 'orch_heartbeats.task_id')
        .where('orch_tasks.sprint_id', '=', sprintId)
        .orderBy('orch_tasks.position')
        .execute()
      return rows.map(toHeartbeat)
    },

    /**
     * The sum of every heartbeat sequence of a project: it only grows (each beat adds one), so
     * together with the event sequence it tells a reader that something changed.
     */
    async sequenceTotal(projectId: number): Promise<number> {
      const row = await db
        .selectFrom('orch_heartbeats')
        .innerJoin('orch_tasks', 'orch_tasks.id', 'orch_heartbeats.task_id')
        .innerJoin('orch_sprints', 'orch_sprints.id', 'orch_tasks.sprint_id')
        .select(sql<number | null>`sum(orch_heartbeats.sequence)`.as('total'))
        .where('orch_sprints.project_id', '=', projectId)
        .executeTakeFirst()
      return Number(row?.total ?? 0)
    }
  }
}
export type HeartbeatsRepository = ReturnType<typeof createHeartbeatsRepository>
