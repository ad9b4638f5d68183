/** Tables of enterprise administration and the audit log (migrations 0014, 0015). */
export type TenantsTable = {
  project_id: number
  id: string
  name: string
  status: string
  users: number
  created_at: string
}

export type RbacRolesTable = {
  project_id: number
  role: string
  permissions: string
  created_at: string
  updated_at: string
}

export type RateRulesTable = {
  project_id: number
  id: string
  endpoint: string
  max_requests: number
  created_at: string
}

export type AuditLogTable = {
  project_id: number
  seq: number
  tenant_id: string
  actor: string
  action: string
  target: string | null
  result: string
  gate: string
  status: number
  detail: string
  created_at: string
  prev_hmac: string
  hmac: string
}

export type EnterpriseTables = {
  orch_tenants: TenantsTable
  orch_rbac_roles: RbacRolesTable
  orch_rate_rules: RateRulesTable
  orch_audit_log: AuditLogTable
}
