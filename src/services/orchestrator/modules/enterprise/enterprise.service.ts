/**
 * Enterprise administration: tenants, RBAC roles (built-in viewer ⊂ operator ⊂ admin, plus custom
 * roles resolved on every request from a copy re-read at least every second), rate rules, and the
 * audit views.
 */
import { orchestratorError } from '../../errors.js'
import { BUILT_IN_PERMISSIONS, BUILT_IN_ROLES, isBuiltInRole, isOidc, type Principal } from '../../principal.js'
import {
  isUniqueViolation,
  type CustomRole,
  type EnterpriseRepository,
  type RateRule,
  type Tenant
} from '../../state/enterprise.repository.js'
import type { AuditService } from './audit.service.js'
import type { RateRules } from './rate-rules.js'

export interface RoleView {
  role: string
  permissions: string[]
  builtIn: boolean
}

export interface EnterpriseDeps {
  repository: EnterpriseRepository
  projectId: number
  audit: AuditService
  rateRules: RateRules
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number
}

/** How long the custom roles read from the database serve requests: another server on the same database changes them too. */
const ROLES_RELOAD_MS = 1000

/**
 * The project's custom roles for per-request permission checks, without a query per request:
 * re-read once older than ROLES_RELOAD_MS, and at once after a change made through this service.
 */
function customRoles(load: () => Promise<CustomRole[]>, now: () => number) {
  let current: { roles: ReadonlyMap<string, readonly string[]>; at: number } | undefined
  let loading: Promise<ReadonlyMap<string, readonly string[]>> | undefined
  let generation = 0
  return {
    get(): Promise<ReadonlyMap<string, readonly string[]>> {
      if (current && now() - current.at < ROLES_RELOAD_MS) return Promise.resolve(current.roles)
      if (loading) return loading
      const started = generation
      const read: Promise<ReadonlyMap<string, readonly string[]>> = load()
        .then((rows) => {
          const roles = new Map(rows.map((r) => [r.role, r.permissions]))
          // A change made while this read ran may be missing from it: keep it for this caller only.
          if (started === generation) current = { roles, at: now() }
          return roles
        })
        .finally(() => {
          if (loading === read) loading = undefined
        })
      loading = read
      return read
    },
    changed() {
      generation++
      current = undefined
      loading = undefined
    }
  }
}

async function unique<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error)) throw orchestratorError('CONFLICT', `${what} already exists`)
    throw error
  }
}

/** Non-admin OIDC callers see their own tenant's records; the owner, the CLI and admins see all. */
function tenantFilterOf(caller: Principal): string | null {
  return isOidc(caller) && caller.role !== 'admin' ? caller.tenantId : null
}

export function createEnterpriseService(deps: EnterpriseDeps) {
  const { repository: repo, projectId } = deps
  const custom = customRoles(() => repo.roles(projectId), deps.now ?? Date.now)
  return {
    tenants: () => repo.tenants(projectId),
    createTenant: (body: { id: string; name: string; status?: string; users?: number }): Promise<Tenant> =>
      unique(`tenant ${body.id}`, () =>
        repo.insertTenant(projectId, { id: body.id, name: body.name, status: body.status ?? 'active', users: body.users ?? 0 })
      ),
    async updateTenant(id: string, patch: { name?: string; status?: string; users?: number }): Promise<Tenant> {
      if (!(await repo.updateTenant(projectId, id, patch))) throw orchestratorError('NOT_FOUND', `unknown tenant ${id}`)
      return (await repo.tenants(projectId)).find((t) => t.id === id) as Tenant
    },
    async deleteTenant(id: string) {
      if (!(await repo.deleteTenant(projectId, id))) throw orchestratorError('NOT_FOUND', `unknown tenant ${id}`)
      return { ok: true as const, id }
    },

    /** Built-in roles (a custom role of the same name replaces one) and the custom roles. */
    async roles(): Promise<RoleView[]> {
      const custom = await repo.roles(projectId)
      const byName = new Map(custom.map((r) => [r.role, r]))
      const builtIn = BUILT_IN_ROLES.map((role) => ({
        role,
        permissions: byName.get(role)?.permissions ?? [...BUILT_IN_PERMISSIONS[role]],
        builtIn: true
      }))
      return [...builtIn, ...custom.filter((r) => !isBuiltInRole(r.role)).map((r) => ({ ...r, builtIn: false }))]
    },
    async createRole(body: { role: string; permissions: string[] }): Promise<RoleView> {
      await unique(`role ${body.role}`, () => repo.insertRole(projectId, body)).finally(custom.changed)
      return { ...body, builtIn: isBuiltInRole(body.role) }
    },
    /** A built-in role without an override gets one; an unknown custom role is 404. */
    async updateRole(role: string, permissions: string[]): Promise<RoleView> {
      const updated = await repo.updateRole(projectId, { role, permissions }).finally(custom.changed)
      if (!updated) {
        if (!isBuiltInRole(role)) throw orchestratorError('NOT_FOUND', `unknown role ${role}`)
        await unique(`role ${role}`, () => repo.insertRole(projectId, { role, permissions })).finally(custom.changed)
      }
      return { role, permissions, builtIn: isBuiltInRole(role) }
    },
    async deleteRole(role: string) {
      if (!(await repo.deleteRole(projectId, role).finally(custom.changed)))
        throw orchestratorError('NOT_FOUND', `unknown custom role ${role}`)
      return { ok: true as const, id: role, role }
    },
    /** The permissions of role names now (custom rows first, else the built-in matrix). */
    async permissionsOf(roles: readonly string[]): Promise<ReadonlySet<string>> {
      const defined = roles.length === 0 ? undefined : await custom.get()
      const granted = new Set<string>()
      for (const role of roles) {
        const permissions = defined?.get(role) ?? (isBuiltInRole(role) ? BUILT_IN_PERMISSIONS[role] : [])
        for (const permission of permissions) granted.add(permission)
      }
      return granted
    },

    rate: () => deps.rateRules.view(),
    async createRateRule(body: RateRule): Promise<RateRule> {
      await unique(`rate rule ${body.id}`, () => repo.insertRateRule(projectId, body))
      deps.rateRules.invalidate()
      return body
    },
    async updateRateRule(id: string, patch: Partial<Omit<RateRule, 'id'>>): Promise<RateRule> {
      if (!(await repo.updateRateRule(projectId, id, patch))) throw orchestratorError('NOT_FOUND', `unknown rate rule ${id}`)
      deps.rateRules.invalidate()
      return (await repo.rateRules(projectId)).find((r) => r.id === id) as RateRule
    },
    async deleteRateRule(id: string) {
      if (!(await repo.deleteRateRule(projectId, id))) throw orchestratorError('NOT_FOUND', `unknown rate rule ${id}`)
      deps.rateRules.invalidate()
      return { ok: true as const, id }
    },

    async audit(caller: Principal, query: { limit?: number; action?: string }) {
      const tenant = tenantFilterOf(caller)
      const records = await deps.audit.list({
        limit: query.limit ?? 50,
        ...(tenant !== null ? { tenantId: tenant } : {}),
        ...(query.action !== undefined ? { action: query.action } : {})
      })
      return records.map((r) => ({
        id: r.hmac,
        seq: r.seq,
        action: r.action,
        actor: r.actor,
        tenant: r.tenantId,
        resource: r.target ?? '',
        timestamp: r.createdAt,
        result: r.result,
        gate: r.gate,
        status: r.status
      }))
    },
    async missionsAudit(caller: Principal, limit = 200) {
      const rows = await repo.missionAudit(projectId, tenantFilterOf(caller), limit)
      return rows.map((r) => ({
        id: `${r.missionId}:create`,
        action: 'missions:create',
        actor: r.source,
        tenant: r.tenantId,
        resource: r.missionId,
        timestamp: r.createdAt,
        result: 'success'
      }))
    },
    verifyAudit: () => deps.audit.verify()
  }
}
export type EnterpriseService = ReturnType<typeof createEnterpriseService>
