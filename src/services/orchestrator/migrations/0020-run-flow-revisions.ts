import type { Kysely, Migration } from 'kysely'

/**
 * One counter per project, raised in the same transaction as every write of a run flow: the
 * version the flow list's cached pages are keyed by (modules/run-flows/run-flows.routes.ts). A project
 * without a row has had no flow written since this migration.
 */
export const runFlowRevisionsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_run_flow_revisions')
      .addColumn('project_id', 'integer', (c) => c.primaryKey().references('orch_projects.id'))
      .addColumn('revision', 'integer', (c) => c.notNull())
      .execute()
  }
}
