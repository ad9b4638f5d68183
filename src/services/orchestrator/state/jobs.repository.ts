import { isUniqueViolation } from '../../../core/db/errors.js'
import { jobSources } from '../engine/task-lifecycle.js'
import type { JobStatus } from '../engine/types.js'
import type { OrchestratorDb } from './db.js'
import { toJob, type Job } from './domain.js'

export const ACTIVE_JOB_STATUSES: readonly JobStatus[] = ['queued', 'running']
/** The mission a started run is recorded as (kind sprint, source run). */
export interface RunMission {
  id: string
  tenantId: string
  title: string
}

export type FinishedJobStatus = 'completed' | 'failed' | 'killed' | 'orphaned'

export function createJobsRepository(db: OrchestratorDb, clock: () => Date) {
  const activeJob = async (projectId: number): Promise<Job | undefined> => {
    const row = await db.selectFrom('orch_jobs').selectAll().where('project_id', '=', projectId).where('active', '=', 1).executeTakeFirst()
    return row && toJob(row)
  }

  return {
    /**
     * Queues a job for a sprint unless the project already has an active one. The partial
     * unique index orch_jobs_one_active decides between racing callers: exactly one insert
     * succeeds, every other caller gets the winner back with created: false. The run's mission,
     * when given, is inserted in the same transaction: a job never exists without it.
     */
    async startJob(
      projectId: number,
      sprintId: string,
      options: { resume: boolean; mission?: RunMission }
    ): Promise<{ job: Job; created: boolean }> {
      for (let tries = 0; ; tries++) {
        try {
          const job = await db.transaction().execute(async (trx) => {
            const now = clock().toISOString()
            const inserted = await trx
              .insertInto('orch_jobs')
              .values({
                project_id: projectId,
                sprint_id: sprintId,
                status: 'queued',
                active: 1,
                pid: null,
                hostname: null,
                resume: options.resume ? 1 : 0,
                error: null,
                result: null,
                created_at: now,
                started_at: null,
                heartbeat_at: null,
                finished_at: null
              })
              .returningAll()
              .executeTakeFirstOrThrow()
            if (options.mission) {
              const m = options.mission
              await trx
                .insertInto('orch_missions')
                .values({
                  id: m.id,
                  project_id: projectId,
                  tenant_id: m.tenantId,
                  title: m.title,
                  source: 'run',
                  kind: 'sprint',
                  execution_id: null,
                  job_id: inserted.id,
                  sprint_id: sprintId,
                  created_at: now
                })
                .execute()
            }
            return inserted
          })
          return { job: toJob(job), created: true }
        } catch (error) {
          if (!isUniqueViolation(error)) throw error
          const job = await activeJob(projectId)
          // The active job finished between our insert and this read: try again.
          if (job) return { job, created: false }
          if (tries >= 20) throw error
        }
      }
    },

    async get(id: number): Promise<Job | undefined> {
      const row = await db.selectFrom('orch_jobs').selectAll().where('id', '=', id).executeTakeFirst()
      return row && toJob(row)
    },

    active: activeJob,

    /** Every active job of every project (reconciled at server start). */
    async listActive(): Promise<Job[]> {
      return (await db.selectFrom('orch_jobs').selectAll().where('active', '=', 1).orderBy('id').execute()).map(toJob)
    },

    async latest(projectId: number): Promise<Job | undefined> {
      const row = await db
        .selectFrom('orch_jobs')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()
      return row && toJob(row)
    },

    /**
     * Records the pid of a queued job's process as soon as it is launched (before the process
     * claims the job itself), so callers that join the run see it and a launch that dies at once
     * is noticed by its pid.
     */
    async recordLaunch(id: number, pid: number, hostname: string): Promise<boolean> {
      const result = await db
        .updateTable('orch_jobs')
        .set({ pid, hostname })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .where('pid', 'is', null)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    async markRunning(id: number, pid: number, hostname: string): Promise<boolean> {
      const now = clock().toISOString()
      const result = await db
        .updateTable('orch_jobs')
        .set({ status: 'running', pid, hostname, started_at: now, heartbeat_at: now })
        .where('id', '=', id)
        .where('status', 'in', jobSources('running'))
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /** Refreshes the liveness stamp; false once the job is no longer active (e.g. declared orphaned). */
    async heartbeat(id: number): Promise<boolean> {
      const result = await db
        .updateTable('orch_jobs')
        .set({ heartbeat_at: clock().toISOString() })
        .where('id', '=', id)
        .where('active', '=', 1)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /** Ends an active job (active = 0 frees the project for the next one); false when it had already ended. */
    async finish(id: number, status: FinishedJobStatus, details: { error?: string | null; result?: unknown } = {}): Promise<boolean> {
      const result = await db
        .updateTable('orch_jobs')
        .set({
          status,
          active: 0,
          finished_at: clock().toISOString(),
          ...(details.error !== undefined ? { error: details.error } : {}),
          ...(details.result !== undefined ? { result: JSON.stringify(details.result) } : {})
        })
        .where('id', '=', id)
        .where('active', '=', 1)
        .where('status', 'in', jobSources(status))
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    }
  }
}
export type JobsRepository = ReturnType<typeof createJobsRepository>
