import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ProjectConfig } from '../project/config-schema.js'
import type { OrchestratorRepositories } from '../state/repositories.js'
import type { TaskRow } from '../state/db.js'
import type { TaskStatusCounts, TaskTransitionFields } from '../state/tasks.repository.js'
import { toPlannedTask } from '../state/tasks.repository.js'
import { toMicroUsd } from '../state/attempts.repository.js'
import { budgetExceeded, sprintBudget } from './budget.js'
import { processStartTicks } from './process.js'
import type { TaskApprovalGate } from './approval-gate.js'
import { PRIORITIES, type ExecuteTask, type TaskRunOutcome, type TaskStatus } from './types.js'

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
}

export interface SprintResult {
  status: 'COMPLETE' | 'ABORTED'
  stopKind: 'killed' | 'budget' | null
  stopReason: string | null
  counts: TaskStatusCounts
}

export const KILLED_BY_USER = 'killed by user'
/** Starts the stop reason of a job that ended for an outside cause (orphaned, project or database gone). */
export const JOB_INTERRUPTED = 'job interrupted: '
/** Tasks cancelled by a kill or an interruption run again on resume; those a budget stop cancelled do not. */
export const resumableStop = (reason: string | null): boolean => reason === KILLED_BY_USER || (reason?.startsWith(JOB_INTERRUPTED) ?? false)
const ENDED_UNSUCCESSFULLY: readonly TaskStatus[] = ['NO_GO', 'CANCELLED', 'BLOCKED']
const HEARTBEAT_WRITE_MS = 1000
const HEARTBEAT_EVENT_MS = 15000

export function taskLogFile(dataDir: string, sprintId: string, taskId: string): string {
  return path.join(dataDir, 'orchestrator', 'logs', sprintId, `${taskId}.log`)
}

/** The fixed part of a path pattern: `dir/**`, `dir/*` and `dir/x*.ts` all cover everything under `dir/`. */
function scopePrefix(pattern: string): { prefix: string; isDir: boolean } {
  const clean = pattern.replace(/^\.\//, '')
  const glob = clean.search(/[*?[{]/)
  if (glob >= 0) return { prefix: clean.slice(0, clean.lastIndexOf('/', glob) + 1), isDir: true }
  return clean.endsWith('/') ? { prefix: clean, isDir: true } : { prefix: clean, isDir: false }
}

/** True when two file scopes may touch the same file; an empty scope may touch anything. */
export function scopesOverlap(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return true
  return a.some((x) =>
    b.some((y) => {
      const p = scopePrefix(x)
      const q = scopePrefix(y)
      if (p.isDir && q.isDir) return p.prefix.startsWith(q.prefix) || q.prefix.startsWith(p.prefix)
      if (p.isDir) return q.prefix.startsWith(p.prefix)
      if (q.isDir) return p.prefix.startsWith(q.prefix)
      return p.prefix === q.prefix
    })
  )
}

/** Exponential backoff (×2 per retry) with ±20 % jitter, so retrying workers do not hit a provider in step. */
export function retryDelayMs(baseMs: number, retry: number, random: () => number = Math.random): number {
  return Math.round(baseMs * 2 ** (retry - 1) * (0.8 + 0.4 * random()))
}

/**
 * Runs the sprint's runnable tasks to an end: dependencies first, then by priority and plan
 * position, at most `engine.max_workers` at once. Every status change is a guarded transition,
 * so a concurrent kill (or a second job) can never be overwritten.
 */
export async function runSprint(options: RunSprintOptions): Promise<SprintResult> {
  const { repositories: repos, projectId, sprintId, jobId, config, clock } = options
  const runnableFrom: TaskStatus[] = options.resume ? ['PENDING', 'ORPHANED'] : ['PENDING']
  const budget = sprintBudget(config)
  const emit = (type: string, taskId: string | null, data: Record<string, unknown>) =>
    repos.events.append(projectId, { type, sprintId, taskId, data })
  const stop = new AbortController()
  let stopKind: SprintResult['stopKind'] = null
  let stopReason: string | null = null

  const rows = await repos.tasks.listBySprint(sprintId)
  const tasks = new Map(rows.map((row) => [row.key, row]))
  const status = new Map(rows.map((row) => [row.key, row.status as TaskStatus]))
  const running = new Map<string, Promise<void>>()
  // What each task left on its branch; a dependent task's worktree starts from its DONE dependencies' branches.
  const work = new Map(rows.map((row) => [row.key, { branch: row.branch, commitSha: row.commit_sha }]))
  const baseBranchesOf = (row: TaskRow): string[] =>
    (JSON.parse(row.dependencies) as string[])
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

  async function setFinal(
    row: TaskRow,
    from: TaskStatus[],
    to: TaskStatus,
    reason: string,
    extra: Record<string, unknown> = {},
    fields: TaskTransitionFields = {}
  ): Promise<void> {
    if (await repos.tasks.transition(row.id, from, to, { ...fields, reason, finishedAt: clock().toISOString() })) {
      status.set(row.key, to)
      const type = to === 'DONE' ? 'task_done' : to === 'NO_GO' ? 'task_no_go' : to === 'BLOCKED' ? 'task_blocked' : 'task_cancelled'
      await emit(type, row.id, { reason, ...extra })
    } else {
      // Someone else (a kill) ended it first; keep what they wrote.
      status.set(row.key, ((await repos.tasks.get(row.id))?.status ?? to) as TaskStatus)
    }
  }

  async function blockUnreachable(): Promise<void> {
    for (let changed = true; changed;) {
      changed = false
      for (const row of tasks.values()) {
        if (!runnableFrom.includes(status.get(row.key)!)) continue
        for (const dep of JSON.parse(row.dependencies) as string[]) {
          const depStatus = status.get(dep)
          const reason =
            depStatus === undefined
              ? `unknown dependency ${dep}`
              : ENDED_UNSUCCESSFULLY.includes(depStatus)
                ? `dependency ${dep} ended ${depStatus}`
                : null
          if (reason) {
            await setFinal(row, runnableFrom, 'BLOCKED', reason, { dependency: dep })
            changed = true
            break
          }
        }
      }
    }
  }

  function readyTasks(): TaskRow[] {
    return [...tasks.values()]
      .filter((row) => runnableFrom.includes(status.get(row.key)!) && !running.has(row.key))
      .filter((row) => (JSON.parse(row.dependencies) as string[]).every((dep) => status.get(dep) === 'DONE'))
      .sort((a, b) => PRIORITIES.indexOf(a.priority as never) - PRIORITIES.indexOf(b.priority as never) || a.position - b.position)
  }

  function conflictsWithRunning(row: TaskRow): boolean {
    if (options.gitMode) return false
    const files = JSON.parse(row.files) as string[]
    return [...running.keys()].some((key) => scopesOverlap(files, JSON.parse(tasks.get(key)!.files) as string[]))
  }

  /** Parks a task that needs approval until it is decided; false when it must not run (its status is set). */
  async function passApprovalGate(row: TaskRow): Promise<boolean> {
    const gate = options.approvalGate
    if (!gate?.requires(toPlannedTask(row))) return true
    if (!(await repos.tasks.transition(row.id, runnableFrom, 'AWAITING_APPROVAL', { reason: null }))) {
      status.set(row.key, ((await repos.tasks.get(row.id))?.status ?? 'CANCELLED') as TaskStatus)
      return false
    }
    status.set(row.key, 'AWAITING_APPROVAL')
    const verdict = await gate.await({
      taskId: row.id,
      task: toPlannedTask(row),
      signal: stop.signal,
      onParked: (approvalId, expiresAt) => emit('task_awaiting_approval', row.id, { approvalId, expiresAt }).then(() => {})
    })
    if (verdict.allowed) {
      await emit('task_approved', row.id, { approvalId: verdict.approvalId })
      return true
    }
    await setFinal(row, ['AWAITING_APPROVAL'], verdict.cancelled ? 'CANCELLED' : 'NO_GO', verdict.reason, {
      approvalId: verdict.approvalId
    })
    return false
  }

  async function runTask(row: TaskRow): Promise<void> {
    if (!(await passApprovalGate(row))) return
    if (!(await repos.tasks.transition(row.id, [...runnableFrom, 'AWAITING_APPROVAL'], 'CLAIMED', { reason: null }))) {
      status.set(row.key, ((await repos.tasks.get(row.id))?.status ?? 'CANCELLED') as TaskStatus)
      return
    }
    status.set(row.key, 'CLAIMED')
    await emit('task_claimed', row.id, { jobId })
    const planned = toPlannedTask(row)
    const agent = planned.agent ?? config.default_agent ?? Object.keys(config.agents)[0] ?? 'default'
    const logFile = taskLogFile(options.dataDir, sprintId, row.id)
    fs.mkdirSync(path.dirname(logFile), { recursive: true })
    for (let retry = 0; ; retry++) {
      const number = row.attempts + retry + 1
      if (
        stopReason ||
        !(await repos.tasks.transition(row.id, ['CLAIMED'], 'EXECUTING', { attempts: number, startedAt: clock().toISOString() }))
      ) {
        await setFinal(row, ['CLAIMED'], 'CANCELLED', stopReason ?? KILLED_BY_USER)
        return
      }
      status.set(row.key, 'EXECUTING')
      const attempt = await repos.attempts.start(row.id, jobId, number, agent)
      await emit('task_started', row.id, { attempt: number, agent, logFile })
      const outcome = await runAttempt(row, attempt.id, number, logFile)
      await repos.attempts.finish(attempt.id, {
        status: outcome.status,
        exitCode: outcome.exitCode,
        reason: outcome.reason,
        transient: outcome.transient,
        agentMs: outcome.agentMs
      })
      const active: TaskStatus[] = ['EXECUTING', 'TESTING']
      if (outcome.status === 'NO_GO' && outcome.transient && retry + 1 < config.engine.max_attempts && !stopReason) {
        const delayMs = retryDelayMs(config.engine.retry_base_delay_ms, retry + 1)
        if (await repos.tasks.transition(row.id, active, 'CLAIMED', { reason: outcome.reason })) {
          status.set(row.key, 'CLAIMED')
          await emit('task_retry', row.id, { attempt: number, nextAttempt: number + 1, delayMs, reason: outcome.reason })
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
      const to: TaskStatus = stopReason || outcome.status === 'CANCELLED' ? 'CANCELLED' : outcome.status
      const reason = to === 'CANCELLED' ? (stopReason ?? outcome.reason) : outcome.reason
      await setFinal(
        row,
        active,
        to,
        reason,
        { attempt: number, exitCode: outcome.exitCode, commitSha: outcome.commitSha, filesChanged: outcome.filesChanged.length },
        fields
      )
      return
    }
  }

  async function runAttempt(row: TaskRow, attemptId: number, number: number, logFile: string): Promise<TaskRunOutcome> {
    // Callbacks are synchronous for the executor; their writes are chained and awaited before the attempt is closed.
    let writes: Promise<unknown> = Promise.resolve()
    const later = (work: () => Promise<unknown>) => {
      writes = writes.then(work).catch((error: unknown) => process.emitWarning(`orchestrator: ${String(error)}`))
    }
    let lastWrite = 0
    let lastEvent = 0
    let lastStatus = 'EXECUTING'
    const started = Date.now()
    let outcome: TaskRunOutcome
    try {
      outcome = await options.executeTask({
        projectRoot: options.projectRoot,
        sprintId,
        taskId: row.id,
        task: toPlannedTask(row),
        attempt: number,
        logFile,
        baseBranches: baseBranchesOf(row),
        logCapBytes: config.engine.log_cap_bytes,
        timeoutMs: config.engine.task_timeout_seconds * 1000,
        signal: stop.signal,
        onHeartbeat(beat) {
          const now = Date.now()
          const statusChanged = beat.status !== lastStatus
          if (!statusChanged && now - lastWrite < HEARTBEAT_WRITE_MS) return
          lastWrite = now
          lastStatus = beat.status
          const sendEvent = now - lastEvent >= HEARTBEAT_EVENT_MS
          if (sendEvent) lastEvent = now
          later(async () => {
            if (statusChanged && beat.status === 'TESTING' && (await repos.tasks.transition(row.id, ['EXECUTING'], 'TESTING')))
              status.set(row.key, 'TESTING')
            const hb = await repos.heartbeats.upsert(row.id, {
              workerId: `job-${jobId}`,
              status: beat.status,
              currentAction: beat.currentAction,
              filesChangedCount: beat.filesChangedCount ?? 0
            })
            if (sendEvent)
              await emit('task_heartbeat', row.id, { status: beat.status, currentAction: beat.currentAction, sequence: hb.sequence })
          })
        },
        onProcess(pid) {
          // Read now, while the process is certainly the one just started.
          const startTicks = processStartTicks(pid)
          later(() => repos.attempts.addPid(attemptId, pid, startTicks))
        },
        onUsage(usage) {
          later(async () => {
            await repos.attempts.addUsage(attemptId, usage)
            const total = await repos.sprints.addUsage(sprintId, usage.inputTokens + usage.outputTokens, toMicroUsd(usage.costUsd))
            const over = budgetExceeded(total, budget)
            if (over) await requestStop('budget', over)
          })
        }
      })
    } catch (error) {
      outcome = {
        status: 'NO_GO',
        reason: `executor failed: ${error instanceof Error ? error.message : String(error)}`,
        transient: false,
        exitCode: null,
        filesChanged: [],
        commitSha: null,
        branch: null,
        worktree: null,
        usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
        logTail: [],
        agentMs: Date.now() - started
      }
    }
    await writes
    return outcome
  }

  await repos.sprints.setStatus(sprintId, 'RUNNING', {
    stopReason: null,
    finishedAt: null,
    ...((await repos.sprints.get(sprintId))?.started_at ? {} : { startedAt: clock().toISOString() })
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
        for (const row of stuck) await setFinal(row, runnableFrom, 'BLOCKED', 'dependency cycle')
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
        await setFinal(row, [...runnableFrom, 'CLAIMED'], 'CANCELLED', stopReason)
    }
  }
  const counts = await repos.tasks.countByStatus(sprintId)
  const result: SprintResult = { status: stopReason ? 'ABORTED' : 'COMPLETE', stopKind, stopReason, counts }
  await repos.sprints.setStatus(sprintId, result.status, { stopReason, finishedAt: clock().toISOString() })
  await emit('sprint_finished', null, { jobId, status: result.status, stopReason, counts })
  return result
}
