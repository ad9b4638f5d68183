import { createHash } from 'node:crypto'
import type { Kysely, Migration } from 'kysely'

/** The tenant of every request recorded before tenants existed (the local project's callers). */
const DEFAULT_TENANT = 'local'

interface OldProcessApproval {
  id: string
  project_id: number
  tenant_id: string
  scope_id: string
  summary: string
  risk: string
  details: string
  requested_by: string
  decision: string | null
  decided_by: string | null
  reason: string | null
  idempotency_key: string | null
  created_at: string
  expires_at: string
  decided_at: string | null
}

/**
 * One approval store for everything that parks: approval requests gain the tenant of their
 * requester and the id of what they are about (`scope_id`: the execution of a parked process
 * submission), and the process module's separate store is moved in and dropped. The rows are
 * copied in JavaScript so the decision digest (what an idempotent replay is compared with) is
 * computed exactly as the approvals service computes it, on either database.
 */
export const approvalTenantsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('orch_approvals')
      .addColumn('tenant_id', 'text', (c) => c.notNull().defaultTo(DEFAULT_TENANT))
      .execute()
    await db.schema.alterTable('orch_approvals').addColumn('scope_id', 'text').execute()
    await db.schema
      .createIndex('orch_approvals_tenant_created')
      .on('orch_approvals')
      .columns(['project_id', 'tenant_id', 'created_at'])
      .execute()

    const old = (await db.selectFrom('orch_process_approvals').selectAll().execute()) as OldProcessApproval[]
    for (const row of old) {
      const reason = row.reason ?? ''
      await db
        .insertInto('orch_approvals')
        .values({
          id: row.id,
          project_id: row.project_id,
          tenant_id: row.tenant_id,
          scope_id: row.scope_id,
          task_id: null,
          requester_kind: 'process',
          requester_id: `process:${row.requested_by}`,
          summary: row.summary,
          scope: 'lifecycle',
          risk: row.risk,
          // The old store failed an undecided request at expiry: deny is that behaviour.
          policy: 'require-approval',
          default_action: 'deny',
          tool_name: null,
          masked_args: row.details,
          raw_args_ref: null,
          created_at: row.created_at,
          expires_at: row.expires_at,
          decision: row.decision,
          decided_by: row.decided_by,
          channel: row.decision === null ? null : 'rpc',
          decided_at: row.decided_at,
          reason: row.decision === null ? null : reason,
          closure_reason: null,
          idempotency_key: row.idempotency_key,
          decision_digest:
            row.decision === null
              ? null
              : createHash('sha256')
                  .update(JSON.stringify({ decision: row.decision, reason }))
                  .digest('hex')
        })
        .execute()
    }
    await db.schema.dropTable('orch_process_approvals').execute()
  }
}
