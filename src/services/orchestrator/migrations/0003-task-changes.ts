import type { Kysely, Migration } from 'kysely'

/** The cached read views' revision takes the newest task change of a sprint on every request. */
export const taskChangesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('orch_tasks_sprint_updated').on('orch_tasks').columns(['sprint_id', 'updated_at']).execute()
  }
}
