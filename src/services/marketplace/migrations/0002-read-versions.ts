import type { Kysely, Migration } from 'kysely'

/**
 * Per-customer version counters of what the big list reads show: every write that can change
 * GET /v2/orders/new (orders_version) or GET /v2/products/data (products_version) bumps one in
 * its own transaction, so a cached rendering is served only while its version is current.
 */
export const readVersionsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('mp_customers')
      .addColumn('orders_version', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .alterTable('mp_customers')
      .addColumn('products_version', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute()
  }
}
