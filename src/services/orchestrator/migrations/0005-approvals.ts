import type { Kysely, Migration } from 'kysely'

/**
 * Approval requests and their one decision, on one row: a decision is a conditional update of a
 * pending row, so concurrent deciders race on the database and exactly one wins. Raw arguments
 * are never stored here (only the masked copy and a reference to the 0600 file holding them).
 * Also gives planned tasks a risk class (`Risk:` in DIRECTIVES.md).
 */
export const approvalsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_approvals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('task_id', 'text')
      .addColumn('requester_kind', 'text', (c) => c.notNull()) // engine | agent | process
      .addColumn('requester_id', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('risk', 'text', (c) => c.notNull())
      .addColumn('policy', 'text', (c) => c.notNull())
      .addColumn('default_action', 'text', (c) => c.notNull())
      .addColumn('tool_name', 'text')
      .addColumn('masked_args', 'text', (c) => c.notNull()) // JSON
      .addColumn('raw_args_ref', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('decision', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('channel', 'text')
      .addColumn('decided_at', 'text')
      .addColumn('reason', 'text')
      .addColumn('closure_reason', 'text')
      .addColumn('idempotency_key', 'text')
      .addColumn('decision_digest', 'text')
      .execute()
    await db.schema.createIndex('orch_approvals_project_created').on('orch_approvals').columns(['project_id', 'created_at']).execute()
    await db.schema.createIndex('orch_approvals_task').on('orch_approvals').column('task_id').execute()
    await db.schema.alterTable('orch_tasks').addColumn('risk', 'text').execute()
  }
}
