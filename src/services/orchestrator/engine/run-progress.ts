import type { Sprint } from '../state/domain.js'
import type { OrchestratorRepositories } from '../state/repositories.js'
import { resumableStop } from './task-lifecycle.js'
import { ACTIVE_TASK_STATUSES, type TaskStatus } from './types.js'

export type Progress = Record<'done' | 'active' | 'blocked' | 'noGo' | 'pending' | 'orphaned' | 'cancelled' | 'total', number>

/** A sprint's task counts, and what a resume of it would run again (read by run control). */
export function createRunProgress(repos: Pick<OrchestratorRepositories, 'jobs' | 'sprints' | 'tasks'>) {
  async function progressOf(sprintId: string): Promise<Progress> {
    const c = await repos.tasks.countByStatus(sprintId)
    const n = (...statuses: TaskStatus[]) => statuses.reduce((sum, s) => sum + (c[s] ?? 0), 0)
    return {
      done: n('DONE'),
      active: n(...ACTIVE_TASK_STATUSES),
      blocked: n('BLOCKED'),
      noGo: n('NO_GO'),
      pending: n('PENDING'),
      orphaned: n('ORPHANED'),
      cancelled: n('CANCELLED'),
      total: Object.values(c).reduce((a, b) => a + (b ?? 0), 0)
    }
  }

  /** Tasks a resume would run again: left by a dead job, cancelled by a kill, or never started. */
  async function resumableTasks(sprint: Sprint): Promise<string[]> {
    if (sprint.status !== 'ORPHANED' && sprint.status !== 'ABORTED') return []
    const tasks = await repos.tasks.listBySprint(sprint.id, ['ORPHANED', 'PENDING', 'CANCELLED'])
    return tasks.filter((t) => t.status !== 'CANCELLED' || resumableStop(t.reason)).map((t) => t.id)
  }

  /** The newest sprint when a resume would continue it (left by a dead or killed job), with the tasks it would run. */
  async function resumableSprint(projectId: number): Promise<{ sprint: Sprint; tasks: string[] } | null> {
    const sprint = await repos.sprints.latest(projectId)
    if (!sprint || (await repos.jobs.active(projectId))) return null
    const tasks = await resumableTasks(sprint)
    return tasks.length > 0 ? { sprint, tasks } : null
  }

  return { progressOf, resumableTasks, resumableSprint }
}
