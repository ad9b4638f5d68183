import type { OrchestratorDb } from './db.js'
import { toExecution, type Execution, type ExecutionStatus, type SubmissionRequest } from './domain.js'

export interface NewExecution {
  id: string
  projectId: number
  tenantId: string
  actor: string
  origin: string
  kind: string
  title: string
  request: SubmissionRequest
  effectClass: string
  status: ExecutionStatus
  reason: string | null
  approvalId?: string | null
}

export interface ExecutionUpdate {
  status?: ExecutionStatus
  reason?: string | null
  sprintId?: string | null
  jobId?: number | null
  approvalId?: string | null
}

/** Process submissions; every read is scoped to a project and a tenant. */
export function createExecutionsRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    async create(input: NewExecution): Promise<Execution> {
      const now = clock().toISOString()
      const row = await db
        .insertInto('orch_executions')
        .values({
          id: input.id,
          project_id: input.projectId,
          tenant_id: input.tenantId,
          actor: input.actor,
          origin: input.origin,
          kind: input.kind,
          title: input.title,
          request: JSON.stringify(input.request),
          effect_class: input.effectClass,
          status: input.status,
          reason: input.reason,
          approval_id: input.approvalId ?? null,
          sprint_id: null,
          job_id: null,
          created_at: now,
          updated_at: now
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toExecution(row)
    },

    async get(projectId: number, tenantId: string, id: string): Promise<Execution | undefined> {
      const row = await db
        .selectFrom('orch_executions')
        .selectAll()
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst()
      return row && toExecution(row)
    },

    async byApproval(projectId: number, approvalId: string): Promise<Execution | undefined> {
      const row = await db
        .selectFrom('orch_executions')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('approval_id', '=', approvalId)
        .executeTakeFirst()
      return row && toExecution(row)
    },

    /** Parked submissions of the project, of every tenant (what the approval sweep settles). */
    async listParked(projectId: number, limit = 500): Promise<Execution[]> {
      const rows = await db
        .selectFrom('orch_executions')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('status', '=', 'parked')
        .orderBy('created_at')
        .limit(limit)
        .execute()
      return rows.map(toExecution)
    },

    /** Updates a row; `fromStatus` (when given) guards the change so two deciders cannot both dispatch. */
    async update(id: string, fields: ExecutionUpdate, fromStatus?: ExecutionStatus): Promise<boolean> {
      let query = db
        .updateTable('orch_executions')
        .set({
          updated_at: clock().toISOString(),
          ...(fields.status !== undefined ? { status: fields.status } : {}),
          ...(fields.reason !== undefined ? { reason: fields.reason } : {}),
          ...(fields.sprintId !== undefined ? { sprint_id: fields.sprintId } : {}),
          ...(fields.jobId !== undefined ? { job_id: fields.jobId } : {}),
          ...(fields.approvalId !== undefined ? { approval_id: fields.approvalId } : {})
        })
        .where('id', '=', id)
      if (fromStatus !== undefined) query = query.where('status', '=', fromStatus)
      const result = await query.executeTakeFirst()
      return result.numUpdatedRows > 0n
    }
  }
}
export type ExecutionsRepository = ReturnType<typeof createExecutionsRepository>
