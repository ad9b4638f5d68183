import type { Kysely, Migration } from 'kysely'

/**
 * The nervous system (docs/orchestrator.md#nervous): what its detectors noticed and what they
 * recommend. One open event per detector and subject (the dedupe key), so a detector that keeps
 * seeing the same trouble on each tick does not pile up events.
 */
export const nervousMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_nervous_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('detector', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull()) // task id, sprint id, data dir, webhook channel
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('risk', 'text', (c) => c.notNull()) // low | medium | high
      .addColumn('status', 'text', (c) => c.notNull()) // pending | accepted | rejected | acted
      .addColumn('dedupe_key', 'text', (c) => c.notNull())
      .addColumn('evidence', 'text', (c) => c.notNull()) // JSON
      .addColumn('decided_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .execute()
    await db.schema
      .createIndex('orch_nervous_events_dedupe')
      .on('orch_nervous_events')
      .columns(['project_id', 'dedupe_key'])
      .unique()
      .execute()

    await db.schema
      .createTable('orch_nervous_recommendations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull()) // kill-task | kill-job | inspect | free-disk | raise-budget
      .addColumn('target', 'text')
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('risk', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull()) // open | applied | dismissed
      .addColumn('outcome', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('closed_at', 'text')
      .execute()
  }
}
