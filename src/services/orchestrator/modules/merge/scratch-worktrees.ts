/**
 * Removing a dead merge run's scratch worktrees (check and resolve trees). A kill during
 * `git worktree add` can leave an entry under `<git dir>/worktrees/` whose `gitdir` or `commondir`
 * file was never written: every later `git worktree` command then fails ("failed to read …"), so
 * such entries of the run are deleted from disk first; then the run's trees are unlocked and removed,
 * and prune drops entries whose directory never appeared.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Git } from '../../engine/git.js'

function readable(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').trim() !== ''
  } catch {
    return false
  }
}

export async function removeScratchWorktrees(git: Git, projectRoot: string, runId: string, scratchDirs: readonly string[]): Promise<void> {
  const commonDir = path.resolve(projectRoot, (await git.run(projectRoot, ['rev-parse', '--git-common-dir'])).stdout.trim())
  const entries = path.join(commonDir, 'worktrees')
  for (const name of fs.existsSync(entries) ? fs.readdirSync(entries) : []) {
    if (!name.startsWith(`${runId}-`)) continue
    const entry = path.join(entries, name)
    if (!readable(path.join(entry, 'gitdir')) || !readable(path.join(entry, 'commondir')))
      fs.rmSync(entry, { recursive: true, force: true })
  }
  for (const line of (await git.run(projectRoot, ['worktree', 'list', '--porcelain'])).stdout.split('\n')) {
    const tree = line.startsWith('worktree ') ? line.slice('worktree '.length) : ''
    if (!scratchDirs.some((prefix) => tree.startsWith(prefix))) continue
    // A kill during `git worktree add` leaves the entry locked ("initializing"): unlock, then remove even a locked one.
    await git.run(projectRoot, ['worktree', 'unlock', tree]).catch(() => undefined)
    await git.run(projectRoot, ['worktree', 'remove', '--force', '--force', tree]).catch(() => undefined)
  }
  await git.run(projectRoot, ['worktree', 'prune'])
}
