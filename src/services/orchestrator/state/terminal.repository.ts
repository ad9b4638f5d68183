import { sql } from 'kysely'
import type { OrchestratorDb } from './db.js'

interface TerminalAuditTable {
  id: string
  project_id: number
  tenant_id: string
  principal: string
  action: string
  session_id: string | null
  detail: string
  created_at: string
}

interface TerminalOutboundTable {
  project_id: number
  tenant_id: string
  day: string
  bytes: number | string | bigint
}

// Declared here, not in db.ts: only this repository reads these tables.
type TerminalTables = {
  orch_terminal_audit: TerminalAuditTable
  orch_terminal_outbound: TerminalOutboundTable
}

export interface TerminalAuditRecord {
  id: string
  tenantId: string
  principal: string
  action: string
  sessionId: string | null
  detail: Record<string, unknown>
  createdAt: string
}

export type NewTerminalAudit = Omit<TerminalAuditRecord, 'createdAt'>

export function createTerminalRepository(db: OrchestratorDb, clock: () => Date) {
  const tdb = db.withTables<TerminalTables>()
  return {
    async audit(projectId: number, record: NewTerminalAudit): Promise<void> {
      await tdb
        .insertInto('orch_terminal_audit')
        .values({
          id: record.id,
          project_id: projectId,
          tenant_id: record.tenantId,
          principal: record.principal,
          action: record.action,
          session_id: record.sessionId,
          detail: JSON.stringify(record.detail),
          created_at: clock().toISOString()
        })
        .execute()
    },

    async listAudit(projectId: number, limit = 200): Promise<TerminalAuditRecord[]> {
      const rows = await tdb
        .selectFrom('orch_terminal_audit')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
      return rows.map((row) => ({
        id: row.id,
        tenantId: row.tenant_id,
        principal: row.principal,
        action: row.action,
        sessionId: row.session_id,
        detail: JSON.parse(row.detail) as Record<string, unknown>,
        createdAt: row.created_at
      }))
    },

    async outboundBytes(projectId: number, tenantId: string, day: string): Promise<number> {
      const row = await tdb
        .selectFrom('orch_terminal_outbound')
        .select('bytes')
        .where('project_id', '=', projectId)
        .where('tenant_id', '=', tenantId)
        .where('day', '=', day)
        .executeTakeFirst()
      return row ? Number(row.bytes) : 0
    },

    /** Adds to the day's count atomically (concurrent servers of one project add, never overwrite). */
    async addOutboundBytes(projectId: number, tenantId: string, day: string, bytes: number): Promise<void> {
      await tdb
        .insertInto('orch_terminal_outbound')
        .values({ project_id: projectId, tenant_id: tenantId, day, bytes })
        .onConflict((oc) =>
          oc.columns(['project_id', 'tenant_id', 'day']).doUpdateSet({ bytes: sql`orch_terminal_outbound.bytes + ${bytes}` })
        )
        .execute()
    }
  }
}

export type TerminalRepository = ReturnType<typeof createTerminalRepository>
