import { ACTIVE_TASK_STATUSES, type TaskStatus } from '../../engine/types.js'
import type { Attempt, Heartbeat, Task } from '../../state/domain.js'

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
export function toTaskView(task: Task, lastAttempt?: Attempt): TaskView {
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
    finishedAt: task.finishedAt
  }
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

/** The newest attempt of each task, from a list ordered oldest first. */
export function lastAttemptByTask(attempts: readonly Attempt[]): Map<string, Attempt> {
  const last = new Map<string, Attempt>()
  for (const attempt of attempts) last.set(attempt.taskId, attempt)
  return last
}
