/**
 * What a task's branch changed: the range from the base its worktree was made from (the
 * recorded `refs/quartet-base/…`, else its merge base with HEAD) to the branch's head. Shared by
 * the run-flow footprint, review and the merge queue; git runs with argv only.
 */
import type { Git } from './git.js'
import { BASE_REF_PREFIX, BRANCH_PREFIX } from './worktree-names.js'

export interface FileStat {
  path: string
  insertions: number
  deletions: number
}

export interface TaskRef {
  branch: string | null
}

/** `git diff --numstat -z` output (binary files count 0/0). */
export function parseNumstat(out: string): FileStat[] {
  const parts = out.split('\0')
  const files: FileStat[] = []
  for (let i = 0; i < parts.length; i++) {
    const head = parts[i]!
    if (head === '') continue
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(head)
    if (!match) continue
    let file = match[3]!
    // A rename is "<ins>\t<del>\t" followed by the old and the new path.
    if (file === '') {
      i += 2
      file = parts[i] ?? ''
    }
    files.push({ path: file, insertions: match[1] === '-' ? 0 : Number(match[1]), deletions: match[2] === '-' ? 0 : Number(match[2]) })
  }
  return files
}

/** The commits bounding a task's work (`base`, `head`), or null when its branch does not exist. */
export async function taskRange(git: Git, root: string, task: TaskRef): Promise<{ base: string; head: string } | null> {
  if (!task.branch) return null
  const head = await git.run(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${task.branch}^{commit}`])
  if (head.code !== 0) return null
  // The base ref mirrors the branch name: quartet/<sprint>/<task> ↔ refs/quartet-base/<sprint>/<task>.
  const baseRef = task.branch.startsWith(BRANCH_PREFIX) ? `${BASE_REF_PREFIX}${task.branch.slice(BRANCH_PREFIX.length)}` : null
  const recorded = baseRef ? await git.run(root, ['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`]) : null
  if (recorded?.code === 0) return { base: recorded.stdout.trim(), head: head.stdout.trim() }
  const mergeBase = await git.run(root, ['merge-base', 'HEAD', head.stdout.trim()])
  if (mergeBase.code !== 0) return null
  return { base: mergeBase.stdout.trim(), head: head.stdout.trim() }
}

export async function diffStat(git: Git, root: string, range: { base: string; head: string }): Promise<FileStat[] | null> {
  const out = await git.run(root, ['diff', '--numstat', '-z', '--no-renames', `${range.base}..${range.head}`, '--'])
  return out.code === 0 ? parseNumstat(out.stdout) : null
}
