import type { OrchestratorDb } from './db.js'
import type { EnterpriseTables } from './enterprise-db.js'

export interface Tenant {
  id: string
  name: string
  status: string
  users: number
  createdAt: string
}

export interface CustomRole {
  role: string
  permissions: string[]
}

export interface RateRule {
  id: string
  endpoint: string
  limit: number
}

export interface MissionAuditRow {
  missionId: string
  tenantId: string
  source: string
  createdAt: string
}

/** A primary-key violation on either dialect (the caller turns it into 409). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown }
  return (
    e.code === '23505' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    (typeof e.message === 'string' && /UNIQUE constraint/.test(e.message))
  )
}

function parsePermissions(text: string): string[] {
  const value: unknown = JSON.parse(text)
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : []
}

/** Tenants, custom roles and rate rules of a project; inserts throw on a duplicate key (isUniqueViolation). */
export function createEnterpriseRepository(base: OrchestratorDb, clock: () => Date) {
  const db = base.withTables<EnterpriseTables>()
  const now = () => clock().toISOString()
  return {
    async tenants(projectId: number): Promise<Tenant[]> {
      const rows = await db.selectFrom('orch_tenants').selectAll().where('project_id', '=', projectId).orderBy('id').execute()
      return rows.map((r) => ({ id: r.id, name: r.name, status: r.status, users: Number(r.users), createdAt: r.created_at }))
    },
    async insertTenant(projectId: number, tenant: Omit<Tenant, 'createdAt'>): Promise<Tenant> {
      const createdAt = now()
      await db
        .insertInto('orch_tenants')
        .values({
          project_id: projectId,
          id: tenant.id,
          name: tenant.name,
          status: tenant.status,
          users: tenant.users,
          created_at: createdAt
        })
        .execute()
      return { ...tenant, createdAt }
    },
    async updateTenant(projectId: number, id: string, patch: Partial<Pick<Tenant, 'name' | 'status' | 'users'>>): Promise<boolean> {
      const result = await db
        .updateTable('orch_tenants')
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.status !== undefined ? { status: patch.status } : {}),
          ...(patch.users !== undefined ? { users: patch.users } : {})
        })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async deleteTenant(projectId: number, id: string): Promise<boolean> {
      const result = await db.deleteFrom('orch_tenants').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    async roles(projectId: number): Promise<CustomRole[]> {
      const rows = await db
        .selectFrom('orch_rbac_roles')
        .select(['role', 'permissions'])
        .where('project_id', '=', projectId)
        .orderBy('role')
        .execute()
      return rows.map((r) => ({ role: r.role, permissions: parsePermissions(r.permissions) }))
    },
    async insertRole(projectId: number, role: CustomRole): Promise<void> {
      const at = now()
      await db
        .insertInto('orch_rbac_roles')
        .values({ project_id: projectId, role: role.role, permissions: JSON.stringify(role.permissions), created_at: at, updated_at: at })
        .execute()
    },
    async updateRole(projectId: number, role: CustomRole): Promise<boolean> {
      const result = await db
        .updateTable('orch_rbac_roles')
        .set({ permissions: JSON.stringify(role.permissions), updated_at: now() })
        .where('project_id', '=', projectId)
        .where('role', '=', role.role)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async deleteRole(projectId: number, role: string): Promise<boolean> {
      const result = await db.deleteFrom('orch_rbac_roles').where('project_id', '=', projectId).where('role', '=', role).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    async rateRules(projectId: number): Promise<RateRule[]> {
      const rows = await db.selectFrom('orch_rate_rules').selectAll().where('project_id', '=', projectId).orderBy('id').execute()
      return rows.map((r) => ({ id: r.id, endpoint: r.endpoint, limit: Number(r.max_requests) }))
    },
    async insertRateRule(projectId: number, rule: RateRule): Promise<void> {
      await db
        .insertInto('orch_rate_rules')
        .values({ project_id: projectId, id: rule.id, endpoint: rule.endpoint, max_requests: rule.limit, created_at: now() })
        .execute()
    },
    async updateRateRule(projectId: number, id: string, patch: Partial<Omit<RateRule, 'id'>>): Promise<boolean> {
      const result = await db
        .updateTable('orch_rate_rules')
        .set({
          ...(patch.endpoint !== undefined ? { endpoint: patch.endpoint } : {}),
          ...(patch.limit !== undefined ? { max_requests: patch.limit } : {})
        })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async deleteRateRule(projectId: number, id: string): Promise<boolean> {
      const result = await db.deleteFrom('orch_rate_rules').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    /** Mission lifecycle for missions-audit: one row per mission, newest first, optionally one tenant's. */
    async missionAudit(projectId: number, tenantId: string | null, limit: number): Promise<MissionAuditRow[]> {
      let query = base.selectFrom('orch_missions').select(['id', 'tenant_id', 'source', 'created_at']).where('project_id', '=', projectId)
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId)
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
      return rows.map((r) => ({ missionId: r.id, tenantId: r.tenant_id, source: r.source, createdAt: r.created_at }))
    }
  }
}
export type EnterpriseRepository = ReturnType<typeof createEnterpriseRepository>
