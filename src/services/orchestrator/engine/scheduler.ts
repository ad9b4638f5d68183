import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ProjectConfig } from '../project/config-schema.js'
import type { OrchestratorRepositories } from '../state/repositories.js'
import { plannedTaskOf, type Task } from '../state/domain.js'
import type { TaskStatusCounts, TaskTransitionFields } from '../state/tasks.repository.js'
import type { TaskApprovalGate } from './approval-gate.js'
import { withRefusals, type RunApprovals } from './run-approvals.js'
import { runAttempt } from './attempt.js'
import { sprintBudget } from './budget.js'
import type { EventType, OrchestratorEvents, TaskEnding } from './events.js'
import { retryDelayMs, scopesOverlap } from './schedule-rules.js'
import { taskLogFile } from './worker-log.js'
import { KILLED_BY_USER } from './task-lifecycle.js'
import { PRIORITIES, type ExecuteTask, type TaskStatus } from './types.js'

export interface RunSprintOptions {
  repositories: OrchestratorRepositories
  projectId: number
  sprintId: string
  jobId: number
  executeTask: ExecuteTask
  config: ProjectConfig
  projectRoot: string
  dataDir: string
  /** Without git, tasks share one working tree, so tasks with overlapping file scopes never run together. */
  gitMode: boolean
  clock: () => Date
  /** Aborted when the user kills the run. */
  signal: AbortSignal
  /** A resumed run also picks up tasks left ORPHANED by a dead job. */
  resume?: boolean
  /** Tasks it requires wait AWAITING_APPROVAL for a human's decision before they are claimed. */
  approvalGate?: TaskApprovalGate
  /** The requests an agent raises while it runs: closed when it ends, named in its NO_GO reason. */
  runApprovals?: Pick<RunApprovals, 'withdraw' | 'refusals'>
  /**
   * Runs once a task has ended DONE, while it still holds its worker slot (cross-verify after each
   * task); not after a stop. A failure is only warned about: the task's status is already final.
   */
  onTaskDone?: (taskId: string) => Promise<unknown>
}

export interface SprintResult {
  status: 'COMPLETE' | 'ABORTED'
  stopKind: 'killed' | 'budget' | null
  stopReason: string | null
  counts: TaskStatusCounts
}

const ENDED_UNSUCCESSFULLY: readonly TaskStatus[] = ['NO_GO', 'CANCELLED', 'BLOCKED']
const ENDING_EVENT = { DONE: 'task_done', NO_GO: 'task_no_go', BLOCKED: 'task_blocked', CANCELLED: 'task_cancelled' } as const
type Ending = keyof typeof ENDING_EVENT

/**
 * Runs the sprint's runnable tasks to an end: dependencies first, then by priority and plan
 * position, at most `engine.max_workers` at once. Every status change is a guarded transition,
 * so a concurrent kill (or a second job) can never be overwritten.
 */
export async function runSprint(options: RunSprintOptions): Promise<SprintResult> {
  const { repositories: repos, projectId, sprintId, jobId, config, clock } = options
  const runnableFrom: TaskStatus[] = options.resume ? ['PENDING', 'ORPHANED'] : ['PENDING']
  const budget = sprintBudget(config)
  const emit = <K extends EventType>(type: K, taskId: string | null, data: OrchestratorEvents[K]) =>
    repos.events.append(projectId, { type, sprintId, taskId, data })
  const stop = new AbortController()
  let stopKind: SprintResult['stopKind'] = null
  let stopReason: string | null = null

  const rows = await repos.tasks.listBySprint(sprintId)
  const sprintContext = (await repos.sprints.get(sprintId))?.context ?? undefined
  const tasks = new Map(rows.map((row) => [row.key, row]))
  const status = new Map(rows.map((row) => [row.key, row.status]))
  const running = new Map<string, Promise<void>>()
  // What each task left on its branch; a dependent task's worktree starts from its DONE dependencies' branches.
  const work = new Map(rows.map((row) => [row.key, { branch: row.branch, commitSha: row.commitSha }]))
  const baseBranchesOf = (row: Task): string[] =>
    row.dependencies
      .filter((dep) => status.get(dep) === 'DONE')
      .flatMap((dep) => {
        const done = work.get(dep)
        return done?.branch && done.commitSha ? [done.branch] : []
      })

  async function requestStop(kind: 'killed' | 'budget', reason: string): Promise<void> {
    if (stopKind) return
    stopKind = kind
    stopReason = reason
    stop.abort(reason)
    if (kind === 'budget') {
      const usage = await repos.sprints.usage(sprintId)
      await emit('budget_exceeded', null, { reason, ...usage, limitTokens: budget.tokens, limitMicroUsd: budget.microUsd })
    }
  }
  // A kill names its reason when it is not the user's (the job lost its project or database).
  const onKill = () => {
    void requestStop('killed', typeof options.signal.reason === 'string' ? options.signal.reason : KILLED_BY_USER)
  }
  if (options.signal.aborted) onKill()
  else options.signal.addEventListener('abort', onKill, { once: true })

  /** The status another writer (a kill) left the task in when this process lost a transition. */
  async function reread(row: Task, fallback: TaskStatus): Promise<void> {
    status.set(row.key, (await repos.tasks.get(row.id))?.status ?? fallback)
  }

  async function setFinal(
    row: Task,
    from: readonly TaskStatus[],
    to: Ending,
    ending: TaskEnding,
    fields: TaskTransitionFields = {}
  ): Promise<void> {
    if (await repos.tasks.transition(row.id, to, { ...fields, from, reason: ending.reason, finishedAt: clock().toISOString() })) {
      status.set(row.key, to)
      await emit(ENDING_EVENT[to], row.id, ending)
    } else {
      // Someone else (a kill) ended it first; keep what they wrote.
      await reread(row, to)
    }
  }

  async function blockUnreachable(): Promise<void> {
    for (let changed = true; changed;) {
      changed = false
      for (const row of tasks.values()) {
        if (!runnableFrom.includes(status.get(row.key)!)) continue
        for (const dep of row.dependencies) {
          const depStatus = status.get(dep)
          const reason =
            depStatus === undefined
              ? `unknown dependency ${dep}`
              : ENDED_UNSUCCESSFULLY.includes(depStatus)
                ? `dependency ${dep} ended ${depStatus}`
                : null
          if (reason) {
            await setFinal(row, runnableFrom, 'BLOCKED', { reason, dependency: dep })
            changed = true
            break
          }
        }
      }
    }
  }

  function readyTasks(): Task[] {
    return [...tasks.values()]
      .filter((row) => runnableFrom.includes(status.get(row.key)!) && !running.has(row.key))
      .filter((row) => row.dependencies.every((dep) => status.get(dep) === 'DONE'))
      .sort((a, b) => PRIORITIES.indexOf(a.priority) - PRIORITIES.indexOf(b.priority) || a.position - b.position)
  }

  function conflictsWithRunning(row: Task): boolean {
    if (options.gitMode) return false
    return [...running.keys()].some((key) => scopesOverlap(row.files, tasks.get(key)!.files))
  }

  /** Parks a task that needs approval until it is decided; false when it must not run (its status is set). */
  async function passApprovalGate(row: Task): Promise<boolean> {
    const gate = options.approvalGate
    if (!gate?.requires(plannedTaskOf(row))) return true
    if (!(await repos.tasks.transition(row.id, 'AWAITING_APPROVAL', { from: runnableFrom, reason: null }))) {
      await reread(row, 'CANCELLED')
      return false
    }
    status.set(row.key, 'AWAITING_APPROVAL')
    const verdict = await gate.await({
      taskId: row.id,
      task: plannedTaskOf(row),
      signal: stop.signal,
      onParked: (approvalId, expiresAt) => emit('task_awaiting_approval', row.id, { approvalId, expiresAt }).then(() => {})
    })
    if (verdict.allowed) {
      await emit('task_approved', row.id, { approvalId: verdict.approvalId })
      return true
    }
    await setFinal(row, ['AWAITING_APPROVAL'], verdict.cancelled ? 'CANCELLED' : 'NO_GO', {
      reason: verdict.reason,
      approvalId: verdict.approvalId
    })
    return false
  }

  async function runTask(row: Task): Promise<void> {
    if (!(await passApprovalGate(row))) return
    if (!(await repos.tasks.transition(row.id, 'CLAIMED', { from: [...runnableFrom, 'AWAITING_APPROVAL'], reason: null }))) {
      await reread(row, 'CANCELLED')
      return
    }
    status.set(row.key, 'CLAIMED')
    await emit('task_claimed', row.id, { jobId })
    const planned = plannedTaskOf(row)
    const agent = planned.agent ?? config.default_agent ?? Object.keys(config.agents)[0] ?? 'default'
    const logFile = taskLogFile(options.dataDir, sprintId, row.id)
    fs.mkdirSync(path.dirname(logFile), { recursive: true })
    // A resumed task's earlier attempt ended in another job: its reason is all that is known of it.
    let previous: { reason: string; logTail: string[] } | undefined =
      row.attempts > 0 && row.reason ? { reason: row.reason, logTail: [] } : undefined
    for (let retry = 0; ; retry++) {
      const number = row.attempts + retry + 1
      const startedAt = clock().toISOString()
      if (stopReason || !(await repos.tasks.transition(row.id, 'EXECUTING', { from: ['CLAIMED'], attempts: number, startedAt }))) {
        await setFinal(row, ['CLAIMED'], 'CANCELLED', { reason: stopReason ?? KILLED_BY_USER })
        return
      }
      status.set(row.key, 'EXECUTING')
      const attempt = await repos.attempts.start(row.id, jobId, number, agent)
      await emit('task_started', row.id, { attempt: number, agent, logFile })
      const outcome = await runAttempt({
        repositories: repos,
        executeTask: options.executeTask,
        config,
        budget,
        projectRoot: options.projectRoot,
        sprintId,
        jobId,
        task: row,
        attemptId: attempt.id,
        attempt: number,
        ...(sprintContext ? { sprintContext } : {}),
        ...(previous ? { previous } : {}),
        logFile,
        baseBranches: baseBranchesOf(row),
        signal: stop.signal,
        emit: (type, data) => emit(type, row.id, data),
        onTesting: () => status.set(row.key, 'TESTING'),
        onBudgetExceeded: (reason) => requestStop('budget', reason)
      })
      // The agent is gone: a request it left open guards nothing any more; a refused one explains a NO_GO.
      const asked = options.runApprovals
      await asked?.withdraw(row.id, `the agent's attempt ${number} ended before a decision`)
      if (asked && outcome.status === 'NO_GO') outcome.reason = withRefusals(outcome.reason, await asked.refusals(row.id, startedAt))
      await repos.attempts.finish(attempt.id, {
        status: outcome.status,
        exitCode: outcome.exitCode,
        reason: outcome.reason,
        transient: outcome.transient,
        agentMs: outcome.agentMs
      })
      // A request recorded just before the agent ended may have parked the task again.
      const active: TaskStatus[] = ['EXECUTING', 'AWAITING_APPROVAL', 'TESTING']
      if (outcome.status === 'NO_GO' && outcome.transient && retry + 1 < config.engine.max_attempts && !stopReason) {
        const delayMs = retryDelayMs(config.engine.retry_base_delay_ms, retry + 1)
        if (await repos.tasks.transition(row.id, 'CLAIMED', { from: active, reason: outcome.reason })) {
          status.set(row.key, 'CLAIMED')
          await emit('task_retry', row.id, { attempt: number, nextAttempt: number + 1, delayMs, reason: outcome.reason })
          previous = { reason: outcome.reason, logTail: outcome.logTail }
          await sleep(delayMs, undefined, { signal: stop.signal }).catch(() => {})
          continue
        }
      }
      const fields = {
        branch: outcome.branch,
        worktree: outcome.worktree,
        commitSha: outcome.commitSha,
        filesChanged: outcome.filesChanged
      }
      work.set(row.key, { branch: outcome.branch, commitSha: outcome.commitSha })
      // A task that finished before a stop keeps its DONE: the stop is for what comes after it.
      const to: Ending = outcome.status === 'DONE' ? 'DONE' : stopReason || outcome.status === 'CANCELLED' ? 'CANCELLED' : outcome.status
      const reason = to === 'CANCELLED' ? (stopReason ?? outcome.reason) : outcome.reason
      const ending = {
        reason,
        attempt: number,
        exitCode: outcome.exitCode,
        commitSha: outcome.commitSha,
        filesChanged: outcome.filesChanged.length
      }
      await setFinal(row, active, to, ending, fields)
      // A request the dying agent recorded after the first withdrawal must not stay pending either.
      await asked?.withdraw(row.id, `task ${row.id} has ended (${status.get(row.key)})`)
      if (to === 'DONE' && status.get(row.key) === 'DONE' && options.onTaskDone && !stopReason) {
        await options.onTaskDone(row.id).catch((error: unknown) => process.emitWarning(`after-task step failed: ${String(error)}`))
      }
      return
    }
  }

  await repos.sprints.setStatus(sprintId, 'RUNNING', {
    stopReason: null,
    finishedAt: null,
    ...((await repos.sprints.get(sprintId))?.startedAt ? {} : { startedAt: clock().toISOString() })
  })
  await emit('sprint_started', null, { jobId, resume: options.resume === true, tasks: rows.length, maxWorkers: config.engine.max_workers })

  async function schedule(): Promise<void> {
    for (;;) {
      if (!stopReason) {
        await blockUnreachable()
        for (const row of readyTasks()) {
          if (running.size >= config.engine.max_workers || stopReason) break
          if (conflictsWithRunning(row)) continue
          running.set(
            row.key,
            runTask(row).finally(() => running.delete(row.key))
          )
        }
      }
      if (running.size === 0) {
        const stuck = stopReason ? [] : [...tasks.values()].filter((row) => runnableFrom.includes(status.get(row.key)!))
        if (stuck.length === 0) break
        // Nothing runs and nothing can start: what is left waits on a dependency cycle.
        for (const row of stuck) await setFinal(row, runnableFrom, 'BLOCKED', { reason: 'dependency cycle' })
        continue
      }
      await Promise.race(running.values())
    }
  }

  try {
    await schedule()
  } catch (error) {
    // A failed write must not leave agents running behind a job that is about to exit.
    stop.abort('scheduler failed')
    await Promise.allSettled(running.values())
    throw error
  } finally {
    options.signal.removeEventListener('abort', onKill)
  }

  if (stopReason) {
    for (const row of tasks.values()) {
      if (runnableFrom.includes(status.get(row.key)!) || status.get(row.key) === 'CLAIMED')
        await setFinal(row, [...runnableFrom, 'CLAIMED'], 'CANCELLED', { reason: stopReason })
    }
  }
  const counts = await repos.tasks.countByStatus(sprintId)
  const result: SprintResult = { status: stopReason ? 'ABORTED' : 'COMPLETE', stopKind, stopReason, counts }
  await repos.sprints.setStatus(sprintId, result.status, { stopReason, finishedAt: clock().toISOString() })
  await emit('sprint_finished', null, { jobId, status: result.status, stopReason, counts })
  return result
}
