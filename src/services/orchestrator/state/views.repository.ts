import { sql } from 'kysely'
import { prepareQuery } from '../../../core/db/prepared.js'
import type { OrchestratorDb } from './db.js'
import { toJob, type Job } from './domain.js'

export interface ViewRevision {
  /** The project's active job (queued or running), to be checked for liveness. */
  activeJob: Job | undefined
  /** Changes whenever something a read view shows is written, by this process or another. */
  revision: string
}

/**
 * The revision the cached read views are keyed by (see views/run-views.ts), read with prepared
 * queries that only seek indexes: the newest sprint (orch_sprints_project_number) with its
 * status, usage and times, the active job row (orch_jobs_one_active), the newest event
 * (orch_events_project_seq), the newest task change of that sprint (orch_tasks_sprint_updated)
 * and the newest attempt (primary key) in one; while a job is active, the heartbeat sequences of
 * its sprint in a second.
 */
export function createViewsRepository(db: OrchestratorDb) {
  // Based on the newest sprint: a project without one shows nothing that could change.
  const revisionRow = prepareQuery(db, 1, (projectId: number) =>
    db
      .selectFrom('orch_sprints as s')
      .leftJoin('orch_jobs as j', (join) => join.onRef('j.project_id', '=', 's.project_id').on('j.active', '=', 1))
      .where('s.project_id', '=', projectId)
      .orderBy('s.number', 'desc')
      .limit(1)
      .select([
        'j.id as job_id',
        'j.project_id as job_project_id',
        'j.sprint_id as job_sprint_id',
        'j.status as job_status',
        'j.active as job_active',
        'j.pid as job_pid',
        'j.hostname as job_hostname',
        'j.resume as job_resume',
        'j.error as job_error',
        'j.result as job_result',
        'j.created_at as job_created_at',
        'j.started_at as job_started_at',
        'j.heartbeat_at as job_heartbeat_at',
        'j.finished_at as job_finished_at',
        's.id as sprint_id',
        's.status as sprint_status',
        's.stop_reason as sprint_stop_reason',
        's.started_at as sprint_started_at',
        's.finished_at as sprint_finished_at',
        's.tokens_used as sprint_tokens',
        's.cost_micro_usd as sprint_cost',
        (eb) =>
          eb
            .selectFrom('orch_events')
            .select(sql<number | null>`max(seq)`.as('seq'))
            .whereRef('orch_events.project_id', '=', 's.project_id')
            .as('seq'),
        (eb) =>
          eb
            .selectFrom('orch_tasks')
            .select(sql<string | null>`max(updated_at)`.as('at'))
            .whereRef('orch_tasks.sprint_id', '=', 's.id')
            .as('tasks_at'),
        (eb) =>
          eb
            .selectFrom('orch_attempts')
            .select(sql<number | null>`max(id)`.as('id'))
            .as('attempt_id')
      ])
  )

  // Heartbeats are written only by a running job, most of them without an event.
  const beatsOf = prepareQuery(db, 1, (sprintId: string) =>
    db
      .selectFrom('orch_heartbeats')
      .innerJoin('orch_tasks', 'orch_tasks.id', 'orch_heartbeats.task_id')
      .select(sql<number | null>`sum(orch_heartbeats.sequence)`.as('beats'))
      .where('orch_tasks.sprint_id', '=', sprintId)
  )

  return {
    async revisionOf(projectId: number): Promise<ViewRevision> {
      const row = (await revisionRow(projectId))[0]
      if (!row) return { activeJob: undefined, revision: 'no sprint' }
      const activeJob: Job | undefined =
        row.job_id === null
          ? undefined
          : toJob({
              id: row.job_id,
              project_id: row.job_project_id!,
              sprint_id: row.job_sprint_id!,
              status: row.job_status!,
              active: row.job_active!,
              pid: row.job_pid,
              hostname: row.job_hostname,
              resume: row.job_resume!,
              error: row.job_error,
              result: row.job_result,
              created_at: row.job_created_at!,
              started_at: row.job_started_at,
              heartbeat_at: row.job_heartbeat_at,
              finished_at: row.job_finished_at
            })
      const beats = activeJob ? (await beatsOf(activeJob.sprintId))[0]?.beats : null
      // PostgreSQL answers bigint sums as strings: String() makes both databases' keys alike.
      const revision = JSON.stringify(
        [
          row.seq,
          row.attempt_id,
          beats,
          row.job_id,
          row.job_status,
          row.job_pid,
          row.job_heartbeat_at,
          row.sprint_id,
          row.sprint_status,
          row.sprint_stop_reason,
          row.sprint_started_at,
          row.sprint_finished_at,
          row.sprint_tokens,
          row.sprint_cost,
          row.tasks_at
        ].map((value) => (value === null || value === undefined ? null : String(value)))
      )
      return { activeJob, revision }
    }
  }
}
export type ViewsRepository = ReturnType<typeof createViewsRepository>
