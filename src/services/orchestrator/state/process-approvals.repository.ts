import type { OrchestratorDb, ProcessApprovalRow } from './db.js'

export interface NewProcessApproval {
  id: string
  projectId: number
  tenantId: string
  scopeId: string
  summary: string
  risk: string
  details: unknown
  requestedBy: string
  expiresAt: string
}

/** Approval requests of parked submissions (the process module's own store until the approvals module takes over). */
export function createProcessApprovalsRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    create(input: NewProcessApproval): Promise<ProcessApprovalRow> {
      return db.insertInto('orch_process_approvals').values({
        id: input.id, project_id: input.projectId, tenant_id: input.tenantId, scope_id: input.scopeId, summary: input.summary, risk: input.risk,
        details: JSON.stringify(input.details), requested_by: input.requestedBy, decision: null, decided_by: null, reason: null,
        idempotency_key: null, created_at: clock().toISOString(), expires_at: input.expiresAt, decided_at: null
      }).returningAll().executeTakeFirstOrThrow()
    },

    get(projectId: number, tenantId: string, id: string): Promise<ProcessApprovalRow | undefined> {
      return db.selectFrom('orch_process_approvals').selectAll().where('id', '=', id).where('project_id', '=', projectId).where('tenant_id', '=', tenantId).executeTakeFirst()
    },

    list(projectId: number, tenantId: string, scopeId?: string): Promise<ProcessApprovalRow[]> {
      let query = db.selectFrom('orch_process_approvals').selectAll().where('project_id', '=', projectId).where('tenant_id', '=', tenantId)
      if (scopeId !== undefined) query = query.where('scope_id', '=', scopeId)
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500).execute()
    },

    /** Records a decision on a pending request; false when it was already decided. */
    async decide(id: string, fields: { decision: string; decidedBy: string; reason: string; idempotencyKey: string | null }): Promise<boolean> {
      const result = await db.updateTable('orch_process_approvals').set({
        decision: fields.decision, decided_by: fields.decidedBy, reason: fields.reason, idempotency_key: fields.idempotencyKey, decided_at: clock().toISOString()
      }).where('id', '=', id).where('decision', 'is', null).executeTakeFirst()
      return result.numUpdatedRows > 0n
    }
  }
}
export type ProcessApprovalsRepository = ReturnType<typeof createProcessApprovalsRepository>
