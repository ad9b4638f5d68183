import type { Kysely, Migration } from 'kysely'

/**
 * The flow list pages by (created_at, id) newest first: an index that ends in the id too gives
 * that order straight from the index, where the old one (without id) made every page sort all of
 * a tenant's flows.
 */
export const runFlowsPageIndexMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.dropIndex('orch_run_flows_page').execute()
    await db.schema
      .createIndex('orch_run_flows_page')
      .on('orch_run_flows')
      .columns(['project_id', 'tenant_id', 'created_at', 'id'])
      .execute()
  }
}
