import os from 'node:os'
import type { FinishedJobStatus } from '../state/jobs.repository.js'
import { recordSprintOutcome } from '../modules/memory/engine-records.js'
import { KILLED_BY_USER, runSprint, type RunSprintOptions, type SprintResult } from './scheduler.js'

export interface RunJobOptions extends Omit<RunSprintOptions, 'sprintId' | 'signal' | 'resume'> {
  hostname?: string
  /** How often the job proves it is alive (reconcile declares it orphaned after 30 s of silence). */
  heartbeatMs?: number
  /** Installs SIGTERM/SIGINT handlers that stop the sprint gracefully (the detached job process does). */
  handleSignals?: boolean
  signal?: AbortSignal
  /** Runs once the sprint has ended, before the job is marked finished (e.g. measuring coverage); a failure is only warned about. */
  afterSprint?: (sprintId: string) => Promise<unknown>
}

export interface JobResult { status: FinishedJobStatus; sprint: SprintResult | null; error: string | null }

/**
 * The body of a detached job process: claims the queued job for this process, keeps its
 * heartbeat fresh, runs the sprint and records how it ended. A kill (SIGTERM/SIGINT or the
 * signal) lets running agents be stopped through their own abort signal before the job ends.
 */
export async function runJob(options: RunJobOptions): Promise<JobResult> {
  const { repositories: repos, jobId } = options
  const job = await repos.jobs.get(jobId)
  if (!job) throw new Error(`job ${jobId} not found`)
  if (!(await repos.jobs.markRunning(jobId, process.pid, options.hostname ?? os.hostname()))) {
    return { status: 'failed', sprint: null, error: `job ${jobId} is ${job.status}, not queued` }
  }
  const kill = new AbortController()
  const onSignal = () => kill.abort(KILLED_BY_USER)
  if (options.signal) options.signal.addEventListener('abort', onSignal, { once: true })
  if (options.handleSignals) {
    process.on('SIGTERM', onSignal)
    process.on('SIGINT', onSignal)
  }
  const beat = setInterval(() => {
    repos.jobs.heartbeat(jobId).then((active) => {
      // Declared orphaned while still alive (e.g. stalled for 30 s): another job may take over, so stop writing.
      if (!active) kill.abort('job no longer active')
    }, (error: unknown) => process.emitWarning(`job heartbeat failed: ${String(error)}`))
  }, options.heartbeatMs ?? 5000)
  try {
    const sprint = await runSprint({ ...options, sprintId: job.sprint_id, signal: kill.signal, resume: job.resume === 1 })
    await recordSprintOutcome(repos, options.projectId, job.sprint_id).catch((error: unknown) => process.emitWarning(`recording the sprint in memory failed: ${String(error)}`))
    if (sprint.stopKind !== 'killed') await options.afterSprint?.(job.sprint_id).catch((error: unknown) => process.emitWarning(`after-sprint step failed: ${String(error)}`))
    const status: FinishedJobStatus = sprint.stopKind === 'killed' ? 'killed' : 'completed'
    await repos.jobs.finish(jobId, status, { result: { sprintStatus: sprint.status, stopReason: sprint.stopReason, counts: sprint.counts } })
    return { status, sprint, error: null }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    await repos.sprints.setStatus(job.sprint_id, 'ABORTED', { stopReason: `job failed: ${message}`, finishedAt: new Date().toISOString(), from: ['RUNNING', 'PLANNED'] }).catch(() => false)
    await repos.jobs.finish(jobId, 'failed', { error: message }).catch(() => false)
    return { status: 'failed', sprint: null, error: message }
  } finally {
    clearInterval(beat)
    options.signal?.removeEventListener('abort', onSignal)
    if (options.handleSignals) {
      process.off('SIGTERM', onSignal)
      process.off('SIGINT', onSignal)
    }
  }
}
