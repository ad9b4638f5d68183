import type { Kysely, Migration } from 'kysely'

/**
 * The cross-verify verdict the engine recorded for a task after it ended DONE (JSON, see
 * state/xverify.domain.ts); null while none was run. One column on the task, so every task read
 * (the list, the detail, the status table) carries it without a join.
 */
export const taskXverifyMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('orch_tasks').addColumn('xverify', 'text').execute()
  }
}
