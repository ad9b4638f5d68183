import type { App } from '../../../../core/http/server.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import { auditAs } from './audit-trail.js'
import type { EnterpriseService } from './enterprise.service.js'
import * as schemas from './enterprise.schemas.js'

const tags = ['enterprise']
const errors = { 400: schemas.ErrorBody, 403: schemas.ErrorBody, 404: schemas.ErrorBody, 409: schemas.ErrorBody }

/** /api/enterprise: reads (arrays; audited) and admin writes of tenants, rbac and rate rules (audited). */
export function enterpriseRoutes(deps: { enterprise: EnterpriseService }) {
  const e = deps.enterprise
  return async function register(app: App) {
    const read = (resource: string) => ({ config: { access: ACCESS.sensitiveRead }, schema: { tags, summary: `Enterprise ${resource}` } })

    app.get(
      '/api/enterprise/tenants',
      { ...read('tenants'), schema: { tags, response: { 200: { type: 'array', items: schemas.Tenant } } } },
      async (request) => {
        auditAs(request, 'enterprise:tenants:read', 'tenants')
        return e.tenants()
      }
    )
    app.get(
      '/api/enterprise/rbac',
      { ...read('rbac'), schema: { tags, response: { 200: { type: 'array', items: schemas.Role } } } },
      async (request) => {
        auditAs(request, 'enterprise:rbac:read', 'rbac')
        return e.roles()
      }
    )
    app.get(
      '/api/enterprise/rate',
      { ...read('rate'), schema: { tags, response: { 200: { type: 'array', items: schemas.RateRow } } } },
      async (request) => {
        auditAs(request, 'enterprise:rate:read', 'rate')
        return e.rate()
      }
    )
    app.get(
      '/api/enterprise/audit',
      {
        ...read('audit'),
        schema: { tags, querystring: schemas.AuditQuery, response: { 200: { type: 'array', items: schemas.AuditEntry } } }
      },
      async (request) => {
        auditAs(request, 'enterprise:audit:read', 'audit')
        return e.audit(callerOf(request), request.query)
      }
    )
    app.get(
      '/api/enterprise/audit/verify',
      {
        config: { access: ACCESS.adminRead },
        schema: {
          tags,
          summary: 'Walks the audit chain: the first missing, reordered or tampered record',
          response: { 200: schemas.Verification }
        }
      },
      async (request) => {
        auditAs(request, 'enterprise:audit:verify', 'audit')
        return e.verifyAudit()
      }
    )
    app.get(
      '/api/enterprise/missions-audit',
      { ...read('missions-audit'), schema: { tags, response: { 200: { type: 'array', items: schemas.MissionAuditEntry } } } },
      async (request) => {
        auditAs(request, 'enterprise:missions-audit:read', 'missions-audit')
        return e.missionsAudit(callerOf(request))
      }
    )

    const write = { config: { access: ACCESS.admin } }
    app.post(
      '/api/enterprise/tenants',
      { ...write, schema: { tags, body: schemas.TenantBody, response: { 201: schemas.Tenant, ...errors } } },
      async (request, reply) => {
        auditAs(request, 'enterprise:tenants:create', request.body.id)
        return reply.code(201).send(await e.createTenant(request.body))
      }
    )
    app.put(
      '/api/enterprise/tenants/:id',
      { ...write, schema: { tags, params: schemas.IdParams, body: schemas.TenantPatch, response: { 200: schemas.Tenant, ...errors } } },
      async (request) => {
        auditAs(request, 'enterprise:tenants:update', request.params.id)
        return e.updateTenant(request.params.id, request.body)
      }
    )
    app.delete(
      '/api/enterprise/tenants/:id',
      { ...write, schema: { tags, params: schemas.IdParams, response: { 200: schemas.Deleted, ...errors } } },
      async (request) => {
        auditAs(request, 'enterprise:tenants:delete', request.params.id)
        return e.deleteTenant(request.params.id)
      }
    )
    app.post(
      '/api/enterprise/rbac',
      { ...write, schema: { tags, body: schemas.RoleBody, response: { 201: schemas.Role, ...errors } } },
      async (request, reply) => {
        auditAs(request, 'enterprise:rbac:create', request.body.role)
        return reply.code(201).send(await e.createRole(request.body))
      }
    )
    app.put(
      '/api/enterprise/rbac/:role',
      { ...write, schema: { tags, params: schemas.RoleParams, body: schemas.RolePatch, response: { 200: schemas.Role, ...errors } } },
      async (request) => {
        auditAs(request, 'enterprise:rbac:update', request.params.role)
        return e.updateRole(request.params.role, request.body.permissions)
      }
    )
    app.delete(
      '/api/enterprise/rbac/:role',
      { ...write, schema: { tags, params: schemas.RoleParams, response: { 200: schemas.RoleDeleted, ...errors } } },
      async (request) => {
        auditAs(request, 'enterprise:rbac:delete', request.params.role)
        return e.deleteRole(request.params.role)
      }
    )
    app.post(
      '/api/enterprise/rate',
      { ...write, schema: { tags, body: schemas.RateBody, response: { 201: schemas.RateRule, ...errors } } },
      async (request, reply) => {
        auditAs(request, 'enterprise:rate:create', request.body.id)
        return reply.code(201).send(await e.createRateRule(request.body))
      }
    )
    app.put(
      '/api/enterprise/rate/:id',
      { ...write, schema: { tags, params: schemas.IdParams, body: schemas.RatePatch, response: { 200: schemas.RateRule, ...errors } } },
      async (request) => {
        auditAs(request, 'enterprise:rate:update', request.params.id)
        return e.updateRateRule(request.params.id, request.body)
      }
    )
    app.delete(
      '/api/enterprise/rate/:id',
      { ...write, schema: { tags, params: schemas.IdParams, response: { 200: schemas.Deleted, ...errors } } },
      async (request) => {
        auditAs(request, 'enterprise:rate:delete', request.params.id)
        return e.deleteRateRule(request.params.id)
      }
    )
  }
}
