import { sql } from 'kysely'
import { isUniqueViolation } from '../../../core/db/errors.js'
import type { EventType, OrchestratorEvents, StoredEvent } from '../engine/events.js'
import type { EventRow, OrchestratorDb } from './db.js'

export type { NewEvent, StoredEvent } from '../engine/events.js'

// Stored by this code through NewEvent, so the type names the payload; older rows of removed types are still served as stored.
function toStored(row: EventRow): StoredEvent {
  return {
    seq: Number(row.seq),
    type: row.type as EventType,
    sprintId: row.sprint_id,
    taskId: row.task_id,
    data: JSON.parse(row.data) as never,
    createdAt: row.created_at
  } as StoredEvent
}

/**
 * The append-only event log. The server and detached job processes both append, so the per-
 * project sequence number is taken in the inserting statement itself; two writers racing for
 * the same number on PostgreSQL meet the unique constraint and the loser takes the next one.
 */
export function createEventsRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    async append<K extends EventType>(
      projectId: number,
      event: { type: K; sprintId?: string | null; taskId?: string | null; data: OrchestratorEvents[K] }
    ): Promise<StoredEvent> {
      const createdAt = clock().toISOString()
      const data = JSON.stringify(event.data)
      for (let tries = 0; ; tries++) {
        try {
          const row = await db
            .insertInto('orch_events')
            .columns(['project_id', 'seq', 'type', 'sprint_id', 'task_id', 'data', 'created_at'])
            .expression(
              db
                .selectFrom('orch_events')
                .select([
                  sql.lit(projectId).as('project_id'),
                  sql<number>`coalesce(max(seq), 0) + 1`.as('seq'),
                  sql.val(event.type).as('type'),
                  sql.val(event.sprintId ?? null).as('sprint_id'),
                  sql.val(event.taskId ?? null).as('task_id'),
                  sql.val(data).as('data'),
                  sql.val(createdAt).as('created_at')
                ])
                .where('project_id', '=', projectId)
            )
            .returningAll()
            .executeTakeFirstOrThrow()
          return toStored(row)
        } catch (error) {
          if (!isUniqueViolation(error) || tries >= 20) throw error
        }
      }
    },

    /** Events after a sequence number, oldest first (replay for Last-Event-ID and tailing). */
    async readAfter(
      projectId: number,
      afterSeq: number,
      limit: number,
      filter: { sprintId?: string; taskId?: string } = {}
    ): Promise<StoredEvent[]> {
      let query = db.selectFrom('orch_events').selectAll().where('project_id', '=', projectId).where('seq', '>', afterSeq)
      if (filter.sprintId) query = query.where('sprint_id', '=', filter.sprintId)
      if (filter.taskId) query = query.where('task_id', '=', filter.taskId)
      const rows = await query.orderBy('seq').limit(limit).execute()
      return rows.map(toStored)
    },

    async latestSeq(projectId: number): Promise<number> {
      const row = await db
        .selectFrom('orch_events')
        .select(sql<number | null>`max(seq)`.as('seq'))
        .where('project_id', '=', projectId)
        .executeTakeFirst()
      return Number(row?.seq ?? 0)
    },

    /** The newest event of one type for a sprint, if any. */
    async latestOfType(projectId: number, sprintId: string, type: EventType): Promise<StoredEvent | undefined> {
      const row = await db
        .selectFrom('orch_events')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('sprint_id', '=', sprintId)
        .where('type', '=', type)
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst()
      return row ? toStored(row) : undefined
    }
  }
}
export type EventsRepository = ReturnType<typeof createEventsRepository>
