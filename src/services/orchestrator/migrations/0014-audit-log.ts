import type { Kysely, Migration } from 'kysely'

/**
 * The audit log: one HMAC chain per project. `seq` is dense from 1 and unique, so two writers
 * (two processes) cannot both append the same link; each row's hmac covers its fields and the
 * previous row's hmac.
 */
export const auditLogMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_audit_log')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text')
      .addColumn('result', 'text', (c) => c.notNull()) // success | denied | failed
      .addColumn('gate', 'text', (c) => c.notNull()) // allowed | approval | refused
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull()) // JSON
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('prev_hmac', 'text', (c) => c.notNull())
      .addColumn('hmac', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_audit_log_pk', ['project_id', 'seq'])
      .execute()
    await db.schema.createIndex('orch_audit_log_tenant').on('orch_audit_log').columns(['project_id', 'tenant_id', 'seq']).execute()
  }
}
