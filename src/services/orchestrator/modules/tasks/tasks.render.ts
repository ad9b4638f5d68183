import { ACTIVE_TASK_STATUSES, type TaskStatus } from '../../engine/types.js'
import type { Attempt, Heartbeat, Task, TaskXverify } from '../../state/domain.js'

/** Workers beat every ~15 s; a beat older than this means the worker is probably gone. */
export const HEARTBEAT_STALE_MS = 120_000

export interface TaskView {
  id: string
  key: string
  title: string
  description: string
  priority: string
  dependencies: string[]
  scope: { filesWrite: string[] }
  goNogo: { goCriteria: string[]; noGoCriteria: string[] }
  status: string
  sprintId: string
  assignedAgent: string | null
  branch: string | null
  worktree: string | null
  commit: string | null
  reason: string | null
  attempts: number
  filesChanged: string[]
  createdAt: string
  updatedAt: string
  startedAt: string | null
  finishedAt: string | null
  /** Tokens over every attempt; costUsd null when an attempt's agent reported no cost (unknown, never $0). */
  usage: TaskUsage
  /** The cross-verify verdict recorded after the task ended DONE (cross_verify.after_task); null: none ran. */
  xverify: TaskXverify | null
}

export interface TaskUsage {
  inputTokens: number
  outputTokens: number
  costUsd: number | null
}

export interface HeartbeatView {
  workerId: string
  taskId: string
  status: string
  currentAction: string
  filesChangedCount: number
  sequence: number
  timestamp: string
  ageMs: number
  stale: boolean
}

export function isActiveTask(status: TaskStatus): boolean {
  return ACTIVE_TASK_STATUSES.includes(status)
}

/**
 * A stored task in the wire shape of a task file (docs/orchestrator.md#routes). Dependencies are stored as plan
 * keys; clients get task ids. The agent is the one the plan named, else the one that ran it.
 */
export function toTaskView(task: Task, attempts: readonly Attempt[]): TaskView {
  const lastAttempt = attempts.at(-1)
  return {
    id: task.id,
    key: task.key,
    title: task.title,
    description: task.description,
    priority: task.priority,
    dependencies: task.dependencies.map((key) => `${task.sprintId}-${key}`),
    scope: { filesWrite: task.files },
    goNogo: { goCriteria: task.goCriteria, noGoCriteria: task.noGoCriteria },
    status: task.status,
    sprintId: task.sprintId,
    assignedAgent: task.agent ?? lastAttempt?.agent ?? null,
    branch: task.branch,
    worktree: task.worktree,
    commit: task.commitSha,
    reason: task.reason,
    attempts: task.attempts,
    filesChanged: task.filesChanged,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    startedAt: task.startedAt,
    finishedAt: task.finishedAt,
    usage: usageOf(attempts),
    xverify: task.xverify
  }
}

/** A task's usage over its attempts: the cost is known only when every attempt that ran reported one. */
export function usageOf(attempts: readonly Attempt[]): TaskUsage {
  let inputTokens = 0
  let outputTokens = 0
  let micro: number | null = attempts.length > 0 ? 0 : null
  for (const attempt of attempts) {
    inputTokens += attempt.inputTokens
    outputTokens += attempt.outputTokens
    micro = micro === null || attempt.costMicroUsd === null ? null : micro + attempt.costMicroUsd
  }
  return { inputTokens, outputTokens, costUsd: micro === null ? null : micro / 1e6 }
}

export function toHeartbeatView(beat: Heartbeat, now: Date): HeartbeatView {
  const ageMs = Math.max(0, now.getTime() - Date.parse(beat.updatedAt))
  return {
    workerId: beat.workerId,
    taskId: beat.taskId,
    status: beat.status,
    currentAction: beat.currentAction,
    filesChangedCount: beat.filesChangedCount,
    sequence: beat.sequence,
    timestamp: beat.updatedAt,
    ageMs,
    stale: ageMs > HEARTBEAT_STALE_MS
  }
}

/** The attempts of each task, oldest first, from a list ordered oldest first. */
export function attemptsByTask(attempts: readonly Attempt[]): Map<string, Attempt[]> {
  const byTask = new Map<string, Attempt[]>()
  for (const attempt of attempts) {
    const list = byTask.get(attempt.taskId)
    if (list) list.push(attempt)
    else byTask.set(attempt.taskId, [attempt])
  }
  return byTask
}

/** The newest attempt of each task, from a list ordered oldest first. */
export function lastAttemptByTask(attempts: readonly Attempt[]): Map<string, Attempt> {
  const last = new Map<string, Attempt>()
  for (const attempt of attempts) last.set(attempt.taskId, attempt)
  return last
}
