import { ACTIVE_TASK_STATUSES, type TaskStatus } from '../../engine/types.js'
import type { AttemptRow, HeartbeatRow, TaskRow } from '../../state/db.js'

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

export function isActiveTask(status: string): boolean {
  return ACTIVE_TASK_STATUSES.includes(status as TaskStatus)
}

/**
 * A stored task in the shape of the reference's task file. Dependencies are stored as plan
 * keys; clients get task ids. The agent is the one the plan named, else the one that ran it.
 */
export function toTaskView(row: TaskRow, lastAttempt?: AttemptRow): TaskView {
  return {
    id: row.id,
    key: row.key,
    title: row.title,
    description: row.description,
    priority: row.priority,
    dependencies: (JSON.parse(row.dependencies) as string[]).map((key) => `${row.sprint_id}-${key}`),
    scope: { filesWrite: JSON.parse(row.files) as string[] },
    goNogo: { goCriteria: JSON.parse(row.go_criteria) as string[], noGoCriteria: JSON.parse(row.no_go_criteria) as string[] },
    status: row.status,
    sprintId: row.sprint_id,
    assignedAgent: row.agent ?? lastAttempt?.agent ?? null,
    branch: row.branch,
    worktree: row.worktree,
    commit: row.commit_sha,
    reason: row.reason,
    attempts: Number(row.attempts),
    filesChanged: JSON.parse(row.files_changed) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at
  }
}

export function toHeartbeatView(row: HeartbeatRow, now: Date): HeartbeatView {
  const ageMs = Math.max(0, now.getTime() - Date.parse(row.updated_at))
  return {
    workerId: row.worker_id,
    taskId: row.task_id,
    status: row.status,
    currentAction: row.current_action,
    filesChangedCount: Number(row.files_changed_count),
    sequence: Number(row.sequence),
    timestamp: row.updated_at,
    ageMs,
    stale: ageMs > HEARTBEAT_STALE_MS
  }
}

/** The newest attempt of each task, from a list ordered oldest first. */
export function lastAttemptByTask(attempts: readonly AttemptRow[]): Map<string, AttemptRow> {
  const last = new Map<string, AttemptRow>()
  for (const attempt of attempts) last.set(attempt.task_id, attempt)
  return last
}
