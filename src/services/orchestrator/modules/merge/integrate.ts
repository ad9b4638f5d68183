/**
 * The git steps of the merge queue, none of which touches a working tree until the target has
 * moved: `git merge-tree --write-tree` computes the merge in the object store (a conflict is
 * reported with its files and nothing else happens), `commit-tree` makes the commit, a
 * temporary ref holds it while the project's check runs in a throwaway worktree, and
 * `update-ref <new> <old>` advances the target only if nobody moved it meanwhile.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Git } from '../../engine/git.js'
import { runCommand } from '../../engine/command.js'
import type { EnginePlatform } from '../../engine/types.js'
import type { MergeStrategy } from '../../state/merges.repository.js'
import { commitsToReplay, replayCommits } from './replay.js'

export const TEMP_REF_PREFIX = 'refs/quartet-merge/'

export type Integration = { kind: 'conflict'; files: string[]; commit?: string } | { kind: 'commit'; sha: string; tree: string }

export function createIntegrator(deps: { git: Git; root: string; platform: Pick<EnginePlatform, 'spawn'> }) {
  const { git, root } = deps
  let identity: string[] | null = null

  /** commit-tree needs an identity; a repository without one gets the queue's own. */
  async function identityArgs(): Promise<string[]> {
    if (identity) return identity
    const email = await git.run(root, ['config', 'user.email'])
    identity =
      email.code === 0 && email.stdout.trim() !== '' ? [] : ['-c', 'user.name=Quartet merge queue', '-c', 'user.email=quartet@localhost']
    return identity
  }

  async function revParse(ref: string): Promise<string | null> {
    const out = await git.run(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    return out.code === 0 ? out.stdout.trim() : null
  }

  return {
    revParse,

    async treeOf(commit: string): Promise<string> {
      return (await git.git(root, ['rev-parse', `${commit}^{tree}`])).trim()
    },

    /** The branch checked out in the project root (null: detached HEAD). */
    async currentBranch(): Promise<string | null> {
      const out = await git.run(root, ['symbolic-ref', '--quiet', '--short', 'HEAD'])
      return out.code === 0 ? out.stdout.trim() : null
    },

    async isAncestor(commit: string, of: string): Promise<boolean> {
      return (await git.run(root, ['merge-base', '--is-ancestor', commit, of])).code === 0
    },

    /**
     * Merges `head` into `target` in the object store only: one merge commit, one squashed commit, or
     * (rebase) the task's commits replayed one by one with these trailers added to each message.
     */
    async integrate(
      target: string,
      head: string,
      strategy: MergeStrategy,
      message: string,
      trailers: Record<string, string> = {}
    ): Promise<Integration> {
      // Every commit of the task already replayed by an earlier run: nothing to do, even where later work on the target
      // changed the same lines (a whole-branch merge would see a conflict there).
      if (strategy === 'rebase' && (await commitsToReplay(git, root, target, head)).length === 0) {
        return { kind: 'commit', sha: target, tree: (await git.git(root, ['rev-parse', `${target}^{tree}`])).trim() }
      }
      const merged = await git.run(root, ['merge-tree', '--write-tree', '--name-only', '--no-messages', target, head])
      const lines = merged.stdout.split('\n')
      if (merged.code === 1) {
        const files = lines.slice(1).filter((line) => line.trim() !== '')
        return { kind: 'conflict', files: [...new Set(files)] }
      }
      if (merged.code !== 0) throw new Error(`git merge-tree failed: ${(merged.stderr || merged.stdout).trim()}`)
      if (strategy === 'rebase') return replayCommits(git, root, await identityArgs(), target, head, trailers)
      const tree = lines[0]!.trim()
      const parents = strategy === 'merge' ? ['-p', target, '-p', head] : ['-p', target]
      const sha = (await git.git(root, [...(await identityArgs()), 'commit-tree', tree, ...parents, '-F', '-'], message)).trim()
      return { kind: 'commit', sha, tree }
    },

    async setTempRef(name: string, sha: string): Promise<void> {
      await git.git(root, ['update-ref', `${TEMP_REF_PREFIX}${name}`, sha])
    },

    async deleteTempRef(name: string): Promise<void> {
      await git.run(root, ['update-ref', '-d', `${TEMP_REF_PREFIX}${name}`])
    },

    /** Runs the project's check in a throwaway worktree of `sha`; the worktree is removed after. */
    async check(
      sha: string,
      command: string | string[],
      options: { dir: string; timeoutMs: number }
    ): Promise<{ ok: boolean; output: string }> {
      fs.mkdirSync(path.dirname(options.dir), { recursive: true })
      await git.run(root, ['worktree', 'remove', '--force', options.dir])
      await git.git(root, ['worktree', 'add', '--detach', options.dir, sha])
      try {
        const [file, args] = typeof command === 'string' ? ['/bin/sh', ['-c', command]] : [command[0]!, command.slice(1)]
        const result = await runCommand(deps.platform, file, args, { cwd: options.dir, timeoutMs: options.timeoutMs })
        const output = `${result.stdout}${result.stderr}`.trim().slice(-2000)
        return { ok: result.code === 0, output: result.spawnError ?? output }
      } finally {
        await git.run(root, ['worktree', 'remove', '--force', options.dir])
      }
    },

    /** Advances `refs/heads/<target>` from `old` to `sha`; false when the target moved meanwhile. */
    async compareAndSwap(target: string, sha: string, old: string, reason: string): Promise<boolean> {
      return (await git.run(root, ['update-ref', '-m', reason, `refs/heads/${target}`, sha, old])).code === 0
    },

    /** Working trees (the main one included) that have `target` checked out. */
    async checkedOut(target: string): Promise<string[]> {
      const out = await git.git(root, ['worktree', 'list', '--porcelain'])
      const paths: string[] = []
      let current: string | null = null
      for (const line of out.split('\n')) {
        if (line.startsWith('worktree ')) current = line.slice('worktree '.length)
        else if (line === `branch refs/heads/${target}` && current) paths.push(current)
      }
      return paths
    },

    /** Files changed between two commits. */
    async changedFiles(from: string, to: string): Promise<string[]> {
      const out = await git.git(root, ['diff', '--name-only', '-z', '--no-renames', from, to, '--'])
      return out.split('\0').filter(Boolean)
    },

    /** Uncommitted (staged, unstaged or untracked) files of a working tree. */
    async dirtyFiles(worktree: string): Promise<string[]> {
      const out = await git.git(worktree, ['status', '--porcelain=v1', '-z', '--untracked-files=all'])
      const files: string[] = []
      const parts = out.split('\0')
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i]!
        if (part === '') continue
        files.push(part.slice(3))
        if (part[0] === 'R' || part[0] === 'C') i++
      }
      return files
    },

    /**
     * Brings a working tree that has the target checked out from `old` to `sha` (index and files):
     * a two-tree read-tree keeps every local change to a file the merge does not touch.
     */
    async updateWorktree(worktree: string, old: string, sha: string): Promise<void> {
      await git.git(worktree, ['read-tree', '-m', '-u', old, sha])
    }
  }
}
export type Integrator = ReturnType<typeof createIntegrator>
