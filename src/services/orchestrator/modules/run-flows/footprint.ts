/**
 * A flow's repository footprint: before it starts, the files its tasks are planned to write;
 * after, what each task's branch really changed against the base it was made from.
 */
import type { Git } from '../../engine/git.js'
import { diffStat, taskRange, type FileStat } from '../../engine/task-diff.js'
import type { Task } from '../../state/domain.js'

export type { FileStat } from '../../engine/task-diff.js'

export interface TaskFootprint {
  taskId: string
  title: string
  status: string
  branch: string | null
  files: FileStat[]
}

export interface Footprint {
  phase: 'planned' | 'actual'
  files: FileStat[]
  insertions: number
  deletions: number
  tasks: TaskFootprint[]
}

function total(tasks: TaskFootprint[], phase: Footprint['phase']): Footprint {
  const byPath = new Map<string, FileStat>()
  for (const task of tasks) {
    for (const file of task.files) {
      const seen = byPath.get(file.path)
      if (seen) {
        seen.insertions += file.insertions
        seen.deletions += file.deletions
      } else byPath.set(file.path, { ...file })
    }
  }
  const files = [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path))
  return {
    phase,
    files,
    insertions: files.reduce((n, f) => n + f.insertions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    tasks
  }
}

export function plannedFootprint(tasks: readonly Task[]): Footprint {
  return total(
    tasks.map((t) => ({
      taskId: t.id,
      title: t.title,
      status: t.status,
      branch: null,
      files: t.files.map((f) => ({ path: f, insertions: 0, deletions: 0 }))
    })),
    'planned'
  )
}

/** The diff of one task's branch against the base it was made from (null: no branch). */
export async function branchDiffStat(git: Git, root: string, task: Task): Promise<FileStat[] | null> {
  const range = await taskRange(git, root, task)
  return range ? diffStat(git, root, range) : null
}

export async function actualFootprint(git: Git, root: string, tasks: readonly Task[]): Promise<Footprint> {
  const isRepo = await git.isRepo(root)
  const out: TaskFootprint[] = []
  for (const task of tasks) {
    const stat = isRepo ? await branchDiffStat(git, root, task) : null
    const files = stat ?? task.filesChanged.map((f) => ({ path: f, insertions: 0, deletions: 0 }))
    out.push({ taskId: task.id, title: task.title, status: task.status, branch: task.branch, files })
  }
  return total(out, 'actual')
}
