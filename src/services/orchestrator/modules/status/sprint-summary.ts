import type { Sprint, Task } from '../../state/domain.js'
import type { TaskStatusCounts } from '../../state/tasks.repository.js'

/** A sprint log's metrics; like the log they summarise, every value is text ("-" when unknown). */
export interface SprintMetrics {
  tasks: string
  completed: string
  noGoRate: string
  coverage: string
  duration: string
}

/** "45s", "3m 5s", "2h 1m 0s" (or "-" for a sprint that never started). */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '-'
  const seconds = Math.round(ms / 1000)
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  if (h > 0) return `${h}h ${m}m ${s}s`
  return m > 0 ? `${m}m ${s}s` : `${s}s`
}

export function sprintDurationMs(sprint: Pick<Sprint, 'startedAt' | 'finishedAt'>, now: Date): number | null {
  if (!sprint.startedAt) return null
  const end = sprint.finishedAt ? Date.parse(sprint.finishedAt) : now.getTime()
  return end - Date.parse(sprint.startedAt)
}

export function sprintMetrics(sprint: Pick<Sprint, 'startedAt' | 'finishedAt'>, counts: TaskStatusCounts, now: Date): SprintMetrics {
  const total = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0)
  const noGo = counts.NO_GO ?? 0
  return {
    tasks: String(total),
    completed: String(counts.DONE ?? 0),
    noGoRate: total === 0 ? '-' : `${Math.round((noGo / total) * 100)}%`,
    // Coverage is not measured by a sprint run.
    coverage: '-',
    duration: formatDuration(sprintDurationMs(sprint, now))
  }
}

/** One line per task, as a sprint log's "## Tasks" bullets. */
export function taskBullets(tasks: readonly Task[]): string[] {
  return tasks.map(
    (task) => `${task.id}: ${task.title} (${task.status}${task.reason && task.status !== 'DONE' ? `: ${task.reason.split('\n')[0]}` : ''})`
  )
}
