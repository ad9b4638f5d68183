import type { Kysely, Migration } from 'kysely'

/**
 * Enterprise administration per project: tenants, custom RBAC roles (a custom role named like a
 * built-in one replaces it) and rate rules the limiter applies. Permissions are a JSON array.
 */
export const enterpriseMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('orch_tenants')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('users', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_tenants_pk', ['project_id', 'id'])
      .execute()
    await db.schema
      .createTable('orch_rbac_roles')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('permissions', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_rbac_roles_pk', ['project_id', 'role'])
      .execute()
    await db.schema
      .createTable('orch_rate_rules')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('endpoint', 'text', (c) => c.notNull())
      .addColumn('max_requests', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('orch_rate_rules_pk', ['project_id', 'id'])
      .execute()
  }
}
