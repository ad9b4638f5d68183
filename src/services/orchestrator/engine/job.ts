import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import type { Job } from '../state/domain.js'
import type { FinishedJobStatus } from '../state/jobs.repository.js'
import { runSprint, type RunSprintOptions, type SprintResult } from './scheduler.js'
import { JOB_INTERRUPTED, KILLED_BY_USER } from './task-lifecycle.js'
import { jobEntryCommand } from './job-command.js'
import { JOB_MARK_VAR, jobMark } from './process-tree.js'
import { JOB_STALE_MS } from './run-control.js'
import type { EnginePlatform } from './types.js'

export interface RunJobOptions extends Omit<RunSprintOptions, 'sprintId' | 'signal' | 'resume'> {
  hostname?: string
  /** How often the job proves it is alive (reconcile declares it orphaned after 30 s of silence). */
  heartbeatMs?: number
  /** How long heartbeats may fail before the job stops its agents and gives up (default: the 30 s after which reconcile orphans it). */
  giveUpAfterMs?: number
  /** Installs SIGTERM/SIGINT handlers that stop the sprint gracefully (the detached job process does). */
  handleSignals?: boolean
  signal?: AbortSignal
  /**
   * The job owns this process (the detached job-main): every agent gets the job's mark in its
   * environment and a watchdog process stops them all once this process ends, however it ends.
   */
  supervise?: Pick<EnginePlatform, 'spawn'>
  /** The SQLite file the job writes to: once it is deleted, the job's writes would go nowhere, so it stops. */
  databaseFile?: string
  /**
   * Run in order once the sprint has ended, before the job is marked finished (recording the
   * sprint in memory, measuring coverage …); a failure of one is only warned about.
   */
  onSprintEnded?: ReadonlyArray<(sprintId: string, result: SprintResult) => Promise<unknown>>
}

export interface JobResult {
  status: FinishedJobStatus
  sprint: SprintResult | null
  error: string | null
}

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
  const watchdog = options.supervise ? superviseAgents(job, options.supervise, options.config.engine.kill_grace_seconds * 1000) : undefined
  const kill = new AbortController()
  const onSignal = () => kill.abort(KILLED_BY_USER)
  if (options.signal) options.signal.addEventListener('abort', onSignal, { once: true })
  if (options.handleSignals) {
    process.on('SIGTERM', onSignal)
    process.on('SIGINT', onSignal)
  }
  const heartbeatMs = options.heartbeatMs ?? 5000
  let failingSince: number | null = null
  const beat = setInterval(() => {
    const lost = homeLost(options)
    if (lost) {
      kill.abort(lost)
      return
    }
    repos.jobs.heartbeat(jobId).then(
      (active) => {
        failingSince = null
        // Declared orphaned while still alive (e.g. stalled for 30 s): another job may take over, so stop writing.
        if (!active) kill.abort(`${JOB_INTERRUPTED}no longer active`)
      },
      (error: unknown) => {
        process.emitWarning(`job heartbeat failed: ${String(error)}`)
        failingSince ??= Date.now()
        // By now reconcile treats the job as orphaned; running on would only produce work nobody can record.
        const giveUpAfterMs = options.giveUpAfterMs ?? JOB_STALE_MS
        if (Date.now() - failingSince >= giveUpAfterMs)
          kill.abort(`${JOB_INTERRUPTED}database unreachable for ${Math.round(giveUpAfterMs / 1000)} s: ${String(error)}`)
      }
    )
  }, heartbeatMs)
  try {
    const sprint = await runSprint({ ...options, sprintId: job.sprintId, signal: kill.signal, resume: job.resume })
    for (const hook of options.onSprintEnded ?? []) {
      await hook(job.sprintId, sprint).catch((error: unknown) => process.emitWarning(`after-sprint step failed: ${String(error)}`))
    }
    const status: FinishedJobStatus = sprint.stopKind === 'killed' ? 'killed' : 'completed'
    await repos.jobs.finish(jobId, status, {
      result: { sprintStatus: sprint.status, stopReason: sprint.stopReason, counts: sprint.counts }
    })
    return { status, sprint, error: null }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    await repos.sprints
      .setStatus(job.sprintId, 'ABORTED', {
        stopReason: `job failed: ${message}`,
        finishedAt: new Date().toISOString(),
        from: ['RUNNING', 'PLANNED']
      })
      .catch(() => false)
    await repos.jobs.finish(jobId, 'failed', { error: message }).catch(() => false)
    return { status: 'failed', sprint: null, error: message }
  } finally {
    // Closing the link on a normal end too: whatever an agent left running goes the same way.
    watchdog?.stdin?.end()
    clearInterval(beat)
    options.signal?.removeEventListener('abort', onSignal)
    if (options.handleSignals) {
      process.off('SIGTERM', onSignal)
      process.off('SIGINT', onSignal)
    }
  }
}

/** Why the job can no longer do useful work where it runs (its project or its SQLite file was deleted), or null. */
function homeLost(options: Pick<RunJobOptions, 'projectRoot' | 'databaseFile'>): string | null {
  if (!fs.existsSync(options.projectRoot)) return `${JOB_INTERRUPTED}project directory ${options.projectRoot} was removed`
  if (options.databaseFile && !fs.existsSync(options.databaseFile))
    return `${JOB_INTERRUPTED}database file ${options.databaseFile} was removed`
  return null
}

/**
 * Marks this process's environment (agents inherit it) and starts the job's watchdog (see
 * job-watchdog.ts) in its own process group, linked by a pipe this process holds until it ends.
 */
function superviseAgents(job: Job, platform: Pick<EnginePlatform, 'spawn'>, graceMs: number): ChildProcess {
  const mark = jobMark(job)
  process.env[JOB_MARK_VAR] = mark
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env[JOB_MARK_VAR]
  const { command, args } = jobEntryCommand(
    ['--mark', mark, '--grace-ms', String(Math.round(graceMs)), '--job-pid', String(process.pid)],
    'job-watchdog'
  )
  // Its own working directory is "/": the project's may be removed while it runs (and a module
  // loader that resolves against the cwd, tsx in development, then fails or hangs at start-up).
  const child = platform.spawn(command, args, { env, cwd: '/', detached: true, stdio: ['pipe', 'ignore', 'inherit'] })
  child.on('error', (error) => process.emitWarning(`job watchdog failed: ${error.message}`))
  child.stdin?.on('error', () => {})
  child.unref()
  // The pipe must not keep this process alive: it only has to exist while the process does.
  ;(child.stdin as unknown as { unref?: () => void } | null)?.unref?.()
  return child
}
