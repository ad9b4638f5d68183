import type { Kysely, Migration } from 'kysely'

/**
 * The merge queue: one row per `quartet merge` / `POST /api/merge` run and one per task it
 * processes, in queue order, so a run's progress survives the process that ran it.
 */
export const mergesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_merges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('sprint_id', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('strategy', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull()) // running | done | failed | interrupted
      .addColumn('pid', 'integer')
      .addColumn('hostname', 'text')
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .execute()
    await db.schema.createIndex('orch_merges_project').on('orch_merges').columns(['project_id', 'status']).execute()
    await db.schema
      .createTable('orch_merge_items')
      .addColumn('merge_id', 'text', (c) => c.notNull().references('orch_merges.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull()) // QUEUED | MERGING | MERGED | CONFLICT | CHECK_FAILED | SKIPPED | INTERRUPTED
      .addColumn('files', 'text', (c) => c.notNull()) // JSON: conflicted files
      .addColumn('commit_sha', 'text')
      .addColumn('reason', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_merge_items_pk', ['merge_id', 'position'])
      .execute()
  }
}
