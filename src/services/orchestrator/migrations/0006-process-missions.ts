import type { Kysely, Migration } from 'kysely'

/**
 * Process submissions (`POST /api/process/submit`), the missions that group them, and the
 * approval requests a parked submission waited on (moved into orch_approvals by 0007).
 * Every row carries the tenant stamped from the verified principal.
 */
export const processMissionsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_executions')
      .addColumn('id', 'text', (c) => c.primaryKey()) // proc-<base36 ms>-<6 base36>
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('request', 'text', (c) => c.notNull()) // JSON: the request as accepted (stamped)
      .addColumn('effect_class', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull()) // pending|running|parked|done|failed as last written
      .addColumn('reason', 'text')
      .addColumn('approval_id', 'text')
      .addColumn('sprint_id', 'text')
      .addColumn('job_id', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('orch_executions_tenant').on('orch_executions').columns(['project_id', 'tenant_id']).execute()

    await db.schema
      .createTable('orch_missions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull()) // submission | run
      .addColumn('kind', 'text', (c) => c.notNull()) // item kind: task|sprint|process|capability
      .addColumn('execution_id', 'text')
      .addColumn('job_id', 'integer')
      .addColumn('sprint_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('orch_missions_tenant').on('orch_missions').columns(['project_id', 'tenant_id']).execute()

    await db.schema
      .createTable('orch_process_approvals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('scope_id', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('risk', 'text', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull()) // JSON
      .addColumn('requested_by', 'text', (c) => c.notNull())
      .addColumn('decision', 'text') // allow|deny|defer|escalate, null while pending
      .addColumn('decided_by', 'text')
      .addColumn('reason', 'text')
      .addColumn('idempotency_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .execute()
  }
}
