import type { Kysely, Migration } from 'kysely'

/**
 * The embedded terminal's records: an audit row per session action (never the bytes typed or
 * shown, only kinds, sizes and pattern ids) and the outbound bytes per tenant per UTC day that
 * the daily quota counts (kept across server restarts).
 */
export const terminalMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_terminal_audit')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('principal', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text')
      .addColumn('detail', 'text', (c) => c.notNull()) // JSON
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('orch_terminal_audit_project').on('orch_terminal_audit').columns(['project_id', 'created_at']).execute()
    await db.schema
      .createTable('orch_terminal_outbound')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull()) // YYYY-MM-DD (UTC)
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_terminal_outbound_pk', ['project_id', 'tenant_id', 'day'])
      .execute()
  }
}
