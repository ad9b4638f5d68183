/**
 * Whether each DONE task's branch would merge into the target now, computed in the object store
 * only (`git merge-tree --write-tree`): no worktree, index or ref is touched.
 */
import type { Git } from '../../engine/git.js'

/** READY: the branch already contains the target; BEHIND: the target moved since, but it merges cleanly. */
export type Mergeability = 'READY' | 'BEHIND' | 'CONFLICT' | 'MERGED'

export interface TaskMergeability {
  taskId: string
  title: string
  branch: string
  head: string
  state: Mergeability
  /** Conflicted files (CONFLICT only). */
  files: string[]
  /** Commits on the target the branch does not have. */
  behind: number
}

export async function taskMergeability(
  git: Git,
  root: string,
  target: string,
  tasks: readonly { id: string; title: string; branch: string | null }[]
): Promise<TaskMergeability[]> {
  const rev = async (ref: string) => {
    const out = await git.run(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    return out.code === 0 ? out.stdout.trim() : null
  }
  const targetSha = await rev(`refs/heads/${target}`)
  if (!targetSha) return []
  const result: TaskMergeability[] = []
  for (const task of tasks) {
    const head = task.branch ? await rev(`refs/heads/${task.branch}`) : null
    // A task without a branch (or whose branch is gone) has nothing to merge.
    if (!head || !task.branch) continue
    const base = { taskId: task.id, title: task.title, branch: task.branch, head }
    if ((await git.run(root, ['merge-base', '--is-ancestor', head, targetSha])).code === 0) {
      result.push({ ...base, state: 'MERGED', files: [], behind: 0 })
      continue
    }
    const behind = Number((await git.git(root, ['rev-list', '--count', `${head}..${targetSha}`])).trim())
    const merged = await git.run(root, ['merge-tree', '--write-tree', '--name-only', '--no-messages', targetSha, head])
    if (merged.code === 1) {
      const files = [
        ...new Set(
          merged.stdout
            .split('\n')
            .slice(1)
            .filter((line) => line.trim() !== '')
        )
      ]
      result.push({ ...base, state: 'CONFLICT', files, behind })
    } else if (merged.code !== 0) {
      throw new Error(`git merge-tree failed: ${(merged.stderr || merged.stdout).trim()}`)
    } else {
      result.push({ ...base, state: behind === 0 ? 'READY' : 'BEHIND', files: [], behind })
    }
  }
  return result
}
