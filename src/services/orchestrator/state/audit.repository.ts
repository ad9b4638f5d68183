import type { OrchestratorDb } from './db.js'
import type { AuditLogTable, EnterpriseTables } from './enterprise-db.js'
import { isUniqueViolation } from './enterprise.repository.js'

export interface AuditRecord {
  seq: number
  tenantId: string
  actor: string
  action: string
  target: string | null
  result: 'success' | 'denied' | 'failed'
  gate: 'allowed' | 'approval' | 'refused'
  status: number
  detail: Record<string, unknown>
  createdAt: string
  prevHmac: string
  hmac: string
}

export interface AuditFilter {
  tenantId?: string
  action?: string
  limit: number
}

/** An audit row as read (the project is the repository's own). */
type Row = Omit<AuditLogTable, 'project_id'>

function toRecord(r: Row): AuditRecord {
  return {
    seq: Number(r.seq),
    tenantId: r.tenant_id,
    actor: r.actor,
    action: r.action,
    target: r.target,
    result: r.result as AuditRecord['result'],
    gate: r.gate as AuditRecord['gate'],
    status: Number(r.status),
    detail: JSON.parse(r.detail) as Record<string, unknown>,
    createdAt: r.created_at,
    prevHmac: r.prev_hmac,
    hmac: r.hmac
  }
}

/** The audit chain's rows. `append` links a record after the current head, atomically. */
export function createAuditRepository(base: OrchestratorDb) {
  const db = base.withTables<EnterpriseTables>()
  return {
    /**
     * Appends the record `link(head)` builds after the current head (seq and prev_hmac from it), in
     * one transaction; another writer taking the same seq first makes it retry on the new head.
     */
    async append(projectId: number, link: (head: { seq: number; hmac: string } | null) => AuditRecord): Promise<AuditRecord> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await db.transaction().execute(async (trx) => {
            const head = await trx
              .selectFrom('orch_audit_log')
              .select(['seq', 'hmac'])
              .where('project_id', '=', projectId)
              .orderBy('seq', 'desc')
              .limit(1)
              .executeTakeFirst()
            const record = link(head ? { seq: Number(head.seq), hmac: head.hmac } : null)
            await trx
              .insertInto('orch_audit_log')
              .values({
                project_id: projectId,
                seq: record.seq,
                tenant_id: record.tenantId,
                actor: record.actor,
                action: record.action,
                target: record.target,
                result: record.result,
                gate: record.gate,
                status: record.status,
                detail: JSON.stringify(record.detail),
                created_at: record.createdAt,
                prev_hmac: record.prevHmac,
                hmac: record.hmac
              })
              .execute()
            return record
          })
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= 20) throw error
        }
      }
    },
    /** Newest first. */
    async list(projectId: number, filter: AuditFilter): Promise<AuditRecord[]> {
      let query = db.selectFrom('orch_audit_log').selectAll().where('project_id', '=', projectId)
      if (filter.tenantId !== undefined) query = query.where('tenant_id', '=', filter.tenantId)
      if (filter.action !== undefined) query = query.where('action', '=', filter.action)
      const rows = await query.orderBy('seq', 'desc').limit(filter.limit).execute()
      return rows.map(toRecord)
    },
    /** Oldest first, `limit` rows after `afterSeq` (the verifier walks the chain in pages). */
    async page(projectId: number, afterSeq: number, limit: number): Promise<AuditRecord[]> {
      const rows = await db
        .selectFrom('orch_audit_log')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('seq', '>', afterSeq)
        .orderBy('seq', 'asc')
        .limit(limit)
        .execute()
      return rows.map(toRecord)
    }
  }
}
export type AuditRepository = ReturnType<typeof createAuditRepository>
