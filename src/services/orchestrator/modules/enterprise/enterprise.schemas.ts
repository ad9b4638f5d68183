import { Type } from 'typebox'

export const ErrorBody = Type.Object({ error: Type.String() })
// A schema (not `false`): the validator would silently drop unknown fields; writes must refuse them (400).
const STRICT = { additionalProperties: Type.Never() }
const Id = Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' })
const RoleName = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$' })
const Permission = Type.String({ pattern: '^[a-z][a-z0-9:._-]{0,63}$' })
const Endpoint = Type.String({ pattern: '^/api(/[A-Za-z0-9._:~-]*)*(/\\*)?$', maxLength: 200 })
const TenantStatus = Type.Union([Type.Literal('active'), Type.Literal('suspended')])
const Users = Type.Integer({ minimum: 0, maximum: 1_000_000 })
const Limit = Type.Integer({ minimum: 1, maximum: 100_000 })

export const TenantBody = Type.Object(
  { id: Id, name: Type.String({ minLength: 1, maxLength: 200 }), status: Type.Optional(TenantStatus), users: Type.Optional(Users) },
  STRICT
)
export const TenantPatch = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), status: Type.Optional(TenantStatus), users: Type.Optional(Users) },
  { ...STRICT, minProperties: 1 }
)
export const Tenant = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  users: Type.Integer(),
  createdAt: Type.String()
})

export const RoleBody = Type.Object({ role: RoleName, permissions: Type.Array(Permission, { maxItems: 64, uniqueItems: true }) }, STRICT)
export const RolePatch = Type.Object({ permissions: Type.Array(Permission, { maxItems: 64, uniqueItems: true }) }, STRICT)
export const Role = Type.Object({ role: Type.String(), permissions: Type.Array(Type.String()), builtIn: Type.Boolean() })

export const RateBody = Type.Object({ id: Id, endpoint: Endpoint, limit: Limit }, STRICT)
export const RatePatch = Type.Object({ endpoint: Type.Optional(Endpoint), limit: Type.Optional(Limit) }, { ...STRICT, minProperties: 1 })
export const RateRule = Type.Object({ id: Type.String(), endpoint: Type.String(), limit: Type.Integer() })
export const RateRow = Type.Object({
  id: Type.Optional(Type.String()),
  endpoint: Type.String(),
  limit: Type.Integer(),
  remaining: Type.Integer(),
  resetAt: Type.String()
})

export const IdParams = Type.Object({ id: Type.String({ maxLength: 200 }) })
export const RoleParams = Type.Object({ role: Type.String({ maxLength: 200 }) })
export const Deleted = Type.Object({ ok: Type.Literal(true), id: Type.String() })
export const RoleDeleted = Type.Object({ ok: Type.Literal(true), id: Type.String(), role: Type.String() })

export const AuditQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })), action: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false }
)
export const AuditEntry = Type.Object({
  id: Type.String(),
  seq: Type.Integer(),
  action: Type.String(),
  actor: Type.String(),
  tenant: Type.String(),
  resource: Type.String(),
  timestamp: Type.String(),
  result: Type.String(),
  gate: Type.String(),
  status: Type.Integer()
})
export const MissionAuditEntry = Type.Object({
  id: Type.String(),
  action: Type.String(),
  actor: Type.String(),
  tenant: Type.String(),
  resource: Type.String(),
  timestamp: Type.String(),
  result: Type.String()
})
export const Verification = Type.Object({
  ok: Type.Boolean(),
  records: Type.Integer(),
  firstBroken: Type.Union([
    Type.Null(),
    Type.Object({ seq: Type.Integer(), reason: Type.Union([Type.Literal('missing'), Type.Literal('reordered'), Type.Literal('tampered')]) })
  ])
})
