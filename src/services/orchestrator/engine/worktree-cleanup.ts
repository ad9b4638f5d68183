/**
 * What a task worktree holds, and the cleanup that removes only what provably loses nothing.
 * Callers hold the repository's exclusive lock (see worktrees.ts) while cleaning up.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Git } from './git.js'
import { BASE_REF_PREFIX, BRANCH_PREFIX, refSegment } from './worktree-names.js'

export interface WorktreeStatus {
  path: string
  branch: string | null
  head: string | null
  /** Porcelain status lines of uncommitted and untracked changes; empty when clean. */
  changes: string[]
  clean: boolean
}

export interface CleanupReport {
  removed: { path: string; branch: string }[]
  kept: { path: string; branch: string; reason: string }[]
}

export interface WorktreeEntry {
  path: string
  head: string | null
  branch: string | null
  prunable: boolean
}

export async function listWorktrees({ git }: Git, root: string): Promise<WorktreeEntry[]> {
  const entries: WorktreeEntry[] = []
  let entry: WorktreeEntry | undefined
  for (const line of (await git(root, ['worktree', 'list', '--porcelain'])).split('\n')) {
    if (line.startsWith('worktree ')) {
      entry = { path: line.slice('worktree '.length), head: null, branch: null, prunable: false }
      entries.push(entry)
    } else if (entry && line.startsWith('HEAD ')) entry.head = line.slice(5)
    else if (entry && line.startsWith('branch refs/heads/')) entry.branch = line.slice('branch refs/heads/'.length)
    else if (entry && line.startsWith('prunable')) entry.prunable = true
  }
  return entries
}

export async function worktreeStatus({ git, run }: Git, worktree: string): Promise<WorktreeStatus> {
  const [status, head, branch] = await Promise.all([
    git(worktree, ['status', '--porcelain=v1', '--untracked-files=all']),
    run(worktree, ['rev-parse', '--verify', '--quiet', 'HEAD']),
    run(worktree, ['symbolic-ref', '--quiet', '--short', 'HEAD'])
  ])
  const changes = status.split('\n').filter((line) => line !== '')
  return {
    path: worktree,
    branch: branch.code === 0 ? branch.stdout.trim() : null,
    head: head.code === 0 ? head.stdout.trim() : null,
    changes,
    clean: changes.length === 0
  }
}

export async function cleanupNow(runner: Git, root: string, worktreesDir: string, options: { sprintId?: string }): Promise<CleanupReport> {
  const { git, run } = runner
  const report: CleanupReport = { removed: [], kept: [] }
  await run(root, ['worktree', 'prune'])
  const scope = realpathOrSelf(options.sprintId ? path.join(worktreesDir, refSegment(options.sprintId)) : worktreesDir)
  const prefix = options.sprintId ? `${BRANCH_PREFIX}${refSegment(options.sprintId)}/` : BRANCH_PREFIX
  const headName = (await git(root, ['rev-parse', '--abbrev-ref', 'HEAD'])).trim()
  for (const entry of await listWorktrees(runner, root)) {
    if (!entry.branch?.startsWith(prefix) || !isInside(realpathOrSelf(entry.path), scope)) continue
    const branch = entry.branch
    if (!(await worktreeStatus(runner, entry.path)).clean) {
      report.kept.push({ path: entry.path, branch, reason: 'uncommitted changes' })
      continue
    }
    // git worktree remove deletes ignored files without a word: a worktree holding any is kept.
    const ignored = await ignoredFiles(runner, entry.path)
    if (ignored.length > 0) {
      const named = ignored.slice(0, 5).join(', ') + (ignored.length > 5 ? ` and ${ignored.length - 5} more` : '')
      report.kept.push({ path: entry.path, branch, reason: `ignored files quartet did not create: ${named}` })
      continue
    }
    const unmerged = Number((await git(root, ['rev-list', '--count', `HEAD..refs/heads/${branch}`])).trim())
    if (unmerged > 0) {
      report.kept.push({ path: entry.path, branch, reason: `commits not merged into ${headName}` })
      continue
    }
    // Neither command is forced: git itself refuses if anything changed since the checks.
    const removed = await run(root, ['worktree', 'remove', entry.path])
    if (removed.code !== 0) {
      report.kept.push({ path: entry.path, branch, reason: 'uncommitted changes' })
      continue
    }
    const deleted = await run(root, ['branch', '-d', branch])
    if (deleted.code !== 0) report.kept.push({ path: entry.path, branch, reason: `commits not merged into ${headName}` })
    else {
      await run(root, ['update-ref', '-d', `${BASE_REF_PREFIX}${branch.slice(BRANCH_PREFIX.length)}`])
      report.removed.push({ path: entry.path, branch })
    }
  }
  return report
}

/** Files git ignores in the worktree (each ignored directory as one entry ending in /). */
async function ignoredFiles({ git }: Git, worktree: string): Promise<string[]> {
  const status = await git(worktree, ['status', '--porcelain=v1', '--ignored=matching', '--untracked-files=all'])
  return status
    .split('\n')
    .filter((line) => line.startsWith('!! '))
    .map((line) => line.slice(3))
}

function realpathOrSelf(file: string): string {
  try {
    return fs.realpathSync(file)
  } catch {
    return path.resolve(file)
  }
}

const isInside = (file: string, dir: string) => file === dir || file.startsWith(dir + path.sep)
