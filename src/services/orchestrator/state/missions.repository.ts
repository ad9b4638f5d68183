import type { MissionRow, OrchestratorDb } from './db.js'

export interface NewMission {
  id: string
  projectId: number
  tenantId: string
  title: string
  source: 'submission' | 'run'
  kind: string
  executionId?: string | null
  jobId?: number | null
  sprintId?: string | null
}

/** Missions: one per submission or started run, always read within one tenant. */
export function createMissionsRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    create(input: NewMission): Promise<MissionRow> {
      return db.insertInto('orch_missions').values({
        id: input.id, project_id: input.projectId, tenant_id: input.tenantId, title: input.title, source: input.source, kind: input.kind,
        execution_id: input.executionId ?? null, job_id: input.jobId ?? null, sprint_id: input.sprintId ?? null, created_at: clock().toISOString()
      }).returningAll().executeTakeFirstOrThrow()
    },

    list(projectId: number, tenantId: string, limit: number): Promise<MissionRow[]> {
      return db.selectFrom('orch_missions').selectAll().where('project_id', '=', projectId).where('tenant_id', '=', tenantId)
        .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
    },

    get(projectId: number, tenantId: string, id: string): Promise<MissionRow | undefined> {
      return db.selectFrom('orch_missions').selectAll().where('id', '=', id).where('project_id', '=', projectId).where('tenant_id', '=', tenantId).executeTakeFirst()
    }
  }
}
export type MissionsRepository = ReturnType<typeof createMissionsRepository>
