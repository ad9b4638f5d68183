import os from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { orchestratorError } from '../errors.js'
import type { Job } from '../state/domain.js'
import type { RunMission } from '../state/jobs.repository.js'
import type { OrchestratorRepositories } from '../state/repositories.js'
import { createJobLivenessProbe } from './liveness.js'
import { createRunProgress } from './run-progress.js'
import { createRunApprovals } from './run-approvals.js'
import { isProcessAlive, isRecordedGroup, procState, startedBy } from './process-group.js'
import { JOB_MARK_VAR, jobMark, killProcessTree, type Mark } from './process-tree.js'
import { KILLED_BY_USER, resumableStop } from './task-lifecycle.js'
import { ACTIVE_TASK_STATUSES } from './types.js'

/** A job silent for longer than this is treated as dead even when its pid cannot be checked (other host). */
export const JOB_STALE_MS = 30_000
/** How often a server checks the active job (a dead one is orphaned within this plus one reconcile). */
export const JOB_WATCH_MS = 2000
export const RECOVERY_COMMAND = 'quartet run --resume'

export type Lifecycle = 'IDLE' | 'ACTIVE' | 'ORPHANED' | 'COMPLETE' | 'ABORTED'

export type { Progress } from './run-progress.js'

export interface RunControlOptions {
  repositories: Pick<OrchestratorRepositories, 'jobs' | 'sprints' | 'tasks' | 'attempts' | 'events' | 'approvals'>
  clock: () => Date
  hostname?: string
  /** engine.kill_grace_seconds of the project (read when a kill starts, so a config change applies). */
  killGraceMs: () => number
  /** Called after this process appended events, so streams deliver them at once. */
  notify?: () => void
}

/**
 * What the server, the CLI and the HTTP routes use to see and steer runs: status is always
 * reconciled against the real processes first, so a dead job is never shown as running.
 */
export function createRunControl(options: RunControlOptions) {
  const repos = options.repositories
  // Tasks a kill or a dead job ended no longer wait: what their agents asked is closed with the reason.
  const withdrawRequests = async (projectId: number, taskIds: readonly string[], reason: string) => {
    const asked = createRunApprovals({
      repositories: repos,
      projectId,
      clock: options.clock,
      ...(options.notify ? { notify: options.notify } : {})
    })
    for (const taskId of taskIds) await asked.withdraw(taskId, reason)
  }
  const hostname = options.hostname ?? os.hostname()
  const onThisHost = (job: Job) => job.hostname === hostname
  /** The job's process runs here and is still the one that started the job (not a pid reused since). */
  const jobProcessAlive = (job: Job): job is Job & { pid: number } =>
    job.pid !== null && onThisHost(job) && isProcessAlive(job.pid) && startedBy(job.pid, Date.parse(job.startedAt ?? job.createdAt))

  /**
   * Kills what the job's agents left: the attempts' recorded process groups that are provably
   * still theirs (see isRecordedGroup) and every process carrying the job's mark (with the task's
   * id when one task is meant), setsid descendants included: the same set runProcess kills when
   * an agent ends. Answers the pids signalled.
   */
  async function killAttemptGroups(job: Job, taskId?: string): Promise<number[]> {
    const pgids: number[] = []
    for (const attempt of await repos.attempts.listForJob(job.id)) {
      if (taskId !== undefined && attempt.taskId !== taskId) continue
      pgids.push(...attempt.processes.filter(isRecordedGroup).map((recorded) => recorded.pid))
    }
    const mark: Mark = [`${JOB_MARK_VAR}=${jobMark(job)}`, ...(taskId !== undefined ? [`QUARTET_TASK_ID=${taskId}`] : [])]
    return killProcessTree({ pgids, marks: [mark] }, options.killGraceMs())
  }

  const probe = createJobLivenessProbe()
  /** The same test as jobProcessAlive, with the full /proc proof throttled (see liveness.ts): for reads only, never before a signal. */
  const jobProcessProbablyAlive = (job: Job): boolean =>
    job.pid !== null && onThisHost(job) && probe(job.pid, Date.parse(job.startedAt ?? job.createdAt))

  function jobDeath(job: Job, alive: (job: Job) => boolean = jobProcessAlive): string | null {
    if (job.pid !== null && onThisHost(job) && !alive(job)) return `job process ${job.pid} died`
    const lastSign = Date.parse(job.heartbeatAt ?? job.createdAt)
    const silentMs = options.clock().getTime() - lastSign
    if (silentMs <= JOB_STALE_MS) return null
    if (job.pid === null) return `job ${job.id} never started`
    // Alive but silent: frozen (SIGSTOP, a debugger) or hung, not dead; the reason says which.
    if (onThisHost(job)) {
      const how = procState(job.pid) === 'T' || procState(job.pid) === 't' ? 'stopped, ' : ''
      return `job process ${job.pid} stalled (${how}no heartbeat for ${Math.round(silentMs / 1000)} s)`
    }
    return `job process ${job.pid} on ${job.hostname ?? 'another host'} sent no heartbeat for ${Math.round(silentMs / 1000)} s`
  }

  async function finishRunningAttempts(jobId: number, status: 'ORPHANED' | 'CANCELLED', reason: string) {
    for (const attempt of await repos.attempts.listRunning({ jobId })) {
      await repos.attempts.finish(attempt.id, { status, exitCode: null, reason, transient: false, agentMs: null })
    }
  }

  /** Jobs this process is killing: their death is the kill's to record (killed), not an orphaning. */
  const killing = new Set<number>()

  type Reconciled = { orphanedJob: number | null; orphanedTasks: string[]; killedPids: number[] }
  /**
   * Reconciliations under way, per project. A second reader (the job watcher and a status read,
   * say) waits for the one in flight instead of reading a half-reconciled run: the job already
   * ended but its agents still inside their kill grace period.
   */
  const reconciling = new Map<number, Promise<Reconciled>>()

  function reconcile(projectId: number): Promise<Reconciled> {
    const inFlight = reconciling.get(projectId)
    if (inFlight) return inFlight
    const run = reconcileNow(projectId).finally(() => reconciling.delete(projectId))
    reconciling.set(projectId, run)
    return run
  }

  async function reconcileNow(projectId: number): Promise<Reconciled> {
    const job = await repos.jobs.active(projectId)
    const reason = job && !killing.has(job.id) ? jobDeath(job) : null
    if (!job || !reason) return { orphanedJob: null, orphanedTasks: [], killedPids: [] }
    // Only one reconciler wins the job; the others see it already ended.
    if (!(await repos.jobs.finish(job.id, 'orphaned', { error: reason }))) return { orphanedJob: null, orphanedTasks: [], killedPids: [] }
    // A hung job that stopped beating must not keep writing next to the job that resumes it.
    if (jobProcessAlive(job)) process.kill(job.pid, 'SIGKILL')
    await repos.sprints.setStatus(job.sprintId, 'ORPHANED', { stopReason: reason })
    const orphanedTasks = await repos.tasks.transitionAll(job.sprintId, 'ORPHANED', { reason })
    const killedPids = await killAttemptGroups(job)
    await withdrawRequests(projectId, orphanedTasks, reason)
    await finishRunningAttempts(job.id, 'ORPHANED', reason)
    await repos.events.append(projectId, {
      type: 'job_orphaned',
      sprintId: job.sprintId,
      data: { jobId: job.id, pid: job.pid, reason, tasks: orphanedTasks, killedPids }
    })
    options.notify?.()
    return { orphanedJob: job.id, orphanedTasks, killedPids }
  }

  /**
   * true when reconcile(projectId) would orphan this active job now: its process is gone or it
   * stopped beating. Cheap (no query, kill(pid, 0)), so read paths can check on every request
   * and reconcile only when it says so.
   */
  function jobNeedsReconcile(job: Job): boolean {
    return jobDeath(job, jobProcessProbablyAlive) !== null
  }

  /**
   * A running server notices a dead or stalled job by itself (no reader needed): every
   * `intervalMs` the project's active job is checked (kill(pid, 0) and its heartbeat, no query
   * beyond the active job) and reconciled when it died, so job_orphaned reaches every stream.
   */
  function watchJobs(projectId: number, watch: { intervalMs?: number; onError(error: unknown): void }) {
    let busy = false
    const timer = setInterval(() => {
      if (busy) return
      busy = true
      repos.jobs
        .active(projectId)
        .then(async (job) => {
          if (job && jobNeedsReconcile(job)) await reconcile(projectId)
        })
        .catch(watch.onError)
        .finally(() => {
          busy = false
        })
    }, watch.intervalMs ?? JOB_WATCH_MS)
    timer.unref()
    return { stop: () => clearInterval(timer) }
  }

  /** At server start: every project's active job checked against its process. */
  async function reconcileAll(): Promise<number[]> {
    const orphaned: number[] = []
    for (const job of await repos.jobs.listActive()) {
      const result = await reconcile(job.projectId)
      if (result.orphanedJob !== null) orphaned.push(result.orphanedJob)
    }
    return orphaned
  }

  const { progressOf, resumableTasks, resumableSprint } = createRunProgress(repos)

  async function statusView(projectId: number) {
    await reconcile(projectId)
    const job = await repos.jobs.active(projectId)
    const sprint = job ? await repos.sprints.get(job.sprintId) : await repos.sprints.latest(projectId)
    const lifecycle: Lifecycle = job
      ? 'ACTIVE'
      : sprint?.status === 'ORPHANED'
        ? 'ORPHANED'
        : sprint?.status === 'COMPLETE'
          ? 'COMPLETE'
          : sprint?.status === 'ABORTED'
            ? 'ABORTED'
            : 'IDLE'
    const resumable = !job && sprint !== undefined && (await resumableTasks(sprint)).length > 0
    return {
      lifecycle,
      active: job !== undefined,
      resumable,
      recoveryCommand: resumable ? RECOVERY_COMMAND : null,
      job: job
        ? {
            id: job.id,
            status: job.status,
            pid: job.pid,
            hostname: job.hostname,
            resume: job.resume,
            startedAt: job.startedAt,
            heartbeatAt: job.heartbeatAt
          }
        : null,
      sprint: sprint
        ? {
            id: sprint.id,
            number: sprint.number,
            title: sprint.title,
            status: sprint.status,
            stopReason: sprint.stopReason,
            tokensUsed: sprint.tokensUsed,
            costMicroUsd: sprint.costMicroUsd,
            startedAt: sprint.startedAt,
            finishedAt: sprint.finishedAt
          }
        : null,
      progress: sprint ? await progressOf(sprint.id) : null,
      updatedAt: options.clock().toISOString()
    }
  }

  /** `/api/job/:id`: the job as it really is (reconciled first), or undefined. */
  async function jobView(jobId: number) {
    const before = await repos.jobs.get(jobId)
    if (!before) return undefined
    await reconcile(before.projectId)
    const job = (await repos.jobs.get(jobId))!
    return {
      id: job.id,
      sprintId: job.sprintId,
      status: job.status,
      pid: job.pid,
      ...(job.result !== null ? { result: job.result } : {}),
      ...(job.error ? { error: job.error } : {})
    }
  }

  /**
   * Queues a job that continues the newest sprint after a crash or kill: tasks the dead job left
   * ORPHANED, tasks a kill CANCELLED, and tasks BLOCKED behind them go back to PENDING keeping
   * their branch and worktree (the executor continues in it); DONE tasks are untouched.
   */
  async function resumeSprint(
    projectId: number,
    mission?: Omit<RunMission, 'title'>
  ): Promise<{ job: Job; created: boolean; tasks: string[] }> {
    await reconcile(projectId)
    const sprint = await repos.sprints.latest(projectId)
    const active = await repos.jobs.active(projectId)
    if (active) return { job: active, created: false, tasks: [] }
    if (!sprint || (await resumableTasks(sprint)).length === 0) throw orchestratorError('ORCH_NOTHING_TO_RESUME')
    const started = await repos.jobs.startJob(projectId, sprint.id, {
      resume: true,
      ...(mission ? { mission: { ...mission, title: sprint.title } } : {})
    })
    if (!started.created) return { ...started, tasks: [] }
    const reset = { reason: null, finishedAt: null }
    const tasks = await repos.tasks.transitionAll(sprint.id, 'PENDING', { ...reset, from: ['ORPHANED', 'BLOCKED'] })
    for (const task of await repos.tasks.listBySprint(sprint.id, ['CANCELLED'])) {
      if (resumableStop(task.reason) && (await repos.tasks.transition(task.id, 'PENDING', { ...reset, from: ['CANCELLED'] }))) {
        tasks.push(task.id)
      }
    }
    await repos.events.append(projectId, {
      type: 'sprint_resumed',
      sprintId: sprint.id,
      data: { jobId: started.job.id, tasks: tasks.sort() }
    })
    return { ...started, tasks }
  }

  async function waitForJobEnd(jobId: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms
    for (;;) {
      if ((await repos.jobs.get(jobId))?.active === false) return true
      if (Date.now() >= deadline) return false
      await sleep(100)
    }
  }

  /**
   * Stops the project's active job: SIGTERM lets it abort its agents and record the kill; after
   * the grace period whatever is left (the job, agent process groups) is SIGKILLed and the
   * state is written here instead.
   */
  async function killJob(projectId: number) {
    await reconcile(projectId)
    const job = await repos.jobs.active(projectId)
    if (!job) return { killed: false as const, jobId: null, jobPid: null, killedPids: [] as number[], cancelledTasks: [] as string[] }
    killing.add(job.id)
    try {
      return await killActive(projectId, job)
    } finally {
      killing.delete(job.id)
    }
  }

  async function killActive(projectId: number, job: Job) {
    // A queued job's process (its pid is known from the launch) has not claimed the job yet: the
    // kill is recorded below, and the process exits when it finds the job no longer queued.
    const claimed = job.status === 'running'
    const local = claimed && jobProcessAlive(job)
    if (local) process.kill(job.pid!, 'SIGTERM')
    const endedByItself = local && (await waitForJobEnd(job.id, options.killGraceMs() + 5000))
    // Recorded before the SIGKILL: a server watching this job from another process must find it
    // killed, not a dead process to declare orphaned.
    const recorded = await repos.jobs.finish(job.id, 'killed', { error: KILLED_BY_USER })
    if (claimed && !endedByItself && jobProcessAlive(job)) process.kill(job.pid, 'SIGKILL')
    const killedPids = await killAttemptGroups(job)
    const cancelledTasks = await repos.tasks.transitionAll(job.sprintId, 'CANCELLED', {
      from: [...ACTIVE_TASK_STATUSES, 'PENDING'],
      reason: KILLED_BY_USER,
      finishedAt: options.clock().toISOString()
    })
    await withdrawRequests(projectId, cancelledTasks, KILLED_BY_USER)
    await finishRunningAttempts(job.id, 'CANCELLED', KILLED_BY_USER)
    if (recorded) {
      await repos.sprints.setStatus(job.sprintId, 'ABORTED', {
        stopReason: KILLED_BY_USER,
        finishedAt: options.clock().toISOString(),
        from: ['PLANNED', 'RUNNING']
      })
    }
    await repos.events.append(projectId, {
      type: 'job_killed',
      sprintId: job.sprintId,
      data: { jobId: job.id, pid: job.pid, gracefully: endedByItself, killedPids, cancelledTasks }
    })
    options.notify?.()
    return { killed: true as const, jobId: job.id, jobPid: job.pid, killedPids, cancelledTasks }
  }

  /**
   * Stops one task: it is marked CANCELLED first (so its job cannot record another outcome),
   * then its agent process groups get SIGTERM and, after the grace period, SIGKILL. The job
   * goes on with the other tasks; the task's dependents become BLOCKED.
   */
  async function killTask(taskId: string) {
    const task = await repos.tasks.get(taskId)
    if (
      !task ||
      !(await repos.tasks.transition(taskId, 'CANCELLED', { reason: KILLED_BY_USER, finishedAt: options.clock().toISOString() }))
    ) {
      return { killed: false as const, taskId, killedPids: [] as number[] }
    }
    const attempts = await repos.attempts.listRunning({ taskId })
    const killedPids: number[] = []
    for (const jobId of new Set(attempts.map((a) => a.jobId))) {
      const job = await repos.jobs.get(jobId)
      if (job) killedPids.push(...(await killAttemptGroups(job, taskId)))
    }
    const sprint = await repos.sprints.get(task.sprintId)
    if (sprint) await withdrawRequests(sprint.projectId, [taskId], KILLED_BY_USER)
    if (sprint) await repos.events.append(sprint.projectId, { type: 'task_killed', sprintId: sprint.id, taskId, data: { killedPids } })
    options.notify?.()
    return { killed: true as const, taskId, killedPids }
  }

  /** `/api/cleanup` must answer 409 while this is true: a live job, or a task still claimed or running. */
  async function cleanupBlocked(projectId: number): Promise<boolean> {
    await reconcile(projectId)
    if (await repos.jobs.active(projectId)) return true
    const sprint = await repos.sprints.latest(projectId)
    return sprint !== undefined && (await repos.tasks.listBySprint(sprint.id, ACTIVE_TASK_STATUSES)).length > 0
  }

  return {
    reconcile,
    jobNeedsReconcile,
    watchJobs,
    reconcileAll,
    resumableSprint,
    statusView,
    jobView,
    resumeSprint,
    killJob,
    killTask,
    cleanupBlocked
  }
}
export type RunControl = ReturnType<typeof createRunControl>
