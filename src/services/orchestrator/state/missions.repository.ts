import type { OrchestratorDb } from './db.js'
import { toMission, type Mission } from './domain.js'

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

/** Where a page of missions continues: the last row's sort key. */
export interface MissionKey {
  createdAt: string
  id: string
}

/** Missions: one per submission or started run, always read within one tenant. */
export function createMissionsRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    async create(input: NewMission): Promise<Mission> {
      const row = await db
        .insertInto('orch_missions')
        .values({
          id: input.id,
          project_id: input.projectId,
          tenant_id: input.tenantId,
          title: input.title,
          source: input.source,
          kind: input.kind,
          execution_id: input.executionId ?? null,
          job_id: input.jobId ?? null,
          sprint_id: input.sprintId ?? null,
          created_at: clock().toISOString()
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toMission(row)
    },

    /**
     * One page, newest first, keyset on (created_at, id): rows inserted while a client pages are
     * newer than its cursor, so they never shift, repeat or hide the rows after it.
     */
    async list(projectId: number, tenantId: string, page: { limit: number; before?: MissionKey }): Promise<Mission[]> {
      let query = db.selectFrom('orch_missions').selectAll().where('project_id', '=', projectId).where('tenant_id', '=', tenantId)
      if (page.before) {
        const { createdAt, id } = page.before
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])])
        )
      }
      return (await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute()).map(toMission)
    },

    /** The run mission of a job, within one tenant. */
    async byJob(projectId: number, tenantId: string, jobId: number): Promise<Mission | undefined> {
      const row = await db
        .selectFrom('orch_missions')
        .selectAll()
        .where('job_id', '=', jobId)
        .where('project_id', '=', projectId)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst()
      return row && toMission(row)
    },

    async get(projectId: number, tenantId: string, id: string): Promise<Mission | undefined> {
      const row = await db
        .selectFrom('orch_missions')
        .selectAll()
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst()
      return row && toMission(row)
    }
  }
}
export type MissionsRepository = ReturnType<typeof createMissionsRepository>
