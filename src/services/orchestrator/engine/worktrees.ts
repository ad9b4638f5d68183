/**
 * One git worktree and branch per task (`quartet/<sprint>/<task>`), so agents never touch the
 * user's checkout and every attempt's work survives: a resumed task gets its worktree back with
 * earlier (even uncommitted) files, and cleanup removes only what is provably safe to remove.
 * Git runs through the git port (engine/git.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Git } from './git.js'
import { cleanupNow, listWorktrees, worktreeStatus, type CleanupReport } from './worktree-cleanup.js'
import { BASE_REF_PREFIX, BRANCH_PREFIX, refSegment } from './worktree-names.js'

export type { CleanupReport, WorktreeStatus } from './worktree-cleanup.js'

export interface PreparedWorktree {
  path: string
  branch: string
  /** The commit the task's own work starts from (its changes are diffed against it). */
  baseSha: string
  /** What the new branch was made from: the dependency branches merged, or none (the project's HEAD). */
  baseBranches: string[]
  reused: boolean
}

/** The dependencies' branches could not be merged: nothing was kept of the attempt, nothing of theirs lost. */
export class BaseMergeConflictError extends Error {
  constructor(
    readonly branches: string[],
    readonly files: string[]
  ) {
    super(
      `the work of its dependencies conflicts: merging ${branches.join(', ')} ` +
        `conflicts in ${files.length ? files.join(', ') : 'unknown files'}; ` +
        'resolve it (merge one of these branches into the other) and run the task again'
    )
  }
}

/** `git worktree add` failing while reading another add's half-written admin directory. */
const RACED_ADD = /failed to read .*worktrees\/[^/]+\/(commondir|gitdir|HEAD)|worktrees\/[^/]+\/locked/
const RACED_ADD_RETRIES = 5

export function createWorktrees(gitPort: Git) {
  // Worktree bookkeeping of one repository: adding fresh worktrees is *shared* (several run at
  // once; git's only conflict between them is one add reading another's half-written admin
  // directory, which is retried), while prune, remove, re-adding a kept branch and cleanup are
  // *exclusive*: a prune must never see another add's half-made entry. An exclusive step waits
  // for the shared ones under way; shared steps queued after it wait for it.
  const locks = new Map<string, { tail: Promise<unknown>; shared: Set<Promise<unknown>> }>()
  function lockOf(root: string) {
    const key = path.resolve(root)
    let lock = locks.get(key)
    if (!lock) locks.set(key, (lock = { tail: Promise.resolve(), shared: new Set() }))
    return lock
  }
  function serialized<T>(root: string, work: () => Promise<T>): Promise<T> {
    const lock = lockOf(root)
    const next = Promise.all([lock.tail, ...lock.shared]).then(work, work)
    lock.tail = next.then(
      () => undefined,
      () => undefined
    )
    return next
  }
  function shared<T>(root: string, work: () => Promise<T>): Promise<T> {
    const lock = lockOf(root)
    const next = lock.tail.then(work, work)
    const settled = next.then(
      () => undefined,
      () => undefined
    )
    lock.shared.add(settled)
    void settled.then(() => lock.shared.delete(settled))
    return next
  }

  const { run, git } = gitPort
  const isGitRepo = gitPort.isRepo

  /**
   * Keeps `.quartet/` (config, worktrees) out of `git status` of every checkout of the repo (checked
   * once per repository); answers the repository's common git directory, where its refs live.
   */
  const excluded = new Map<string, Promise<string>>()
  function excludeQuartetDir(root: string): Promise<string> {
    const key = path.resolve(root)
    const done =
      excluded.get(key) ??
      serialized(root, async () => {
        const [excludeFile, commonDir] = (await git(root, ['rev-parse', '--git-path', 'info/exclude', '--git-common-dir']))
          .trim()
          .split('\n')
          .map((line) => path.resolve(root, line))
        const current = fs.existsSync(excludeFile!) ? fs.readFileSync(excludeFile!, 'utf8') : ''
        if (!current.split('\n').some((line) => line.trim() === '.quartet/' || line.trim() === '/.quartet/')) {
          fs.mkdirSync(path.dirname(excludeFile!), { recursive: true })
          fs.appendFileSync(excludeFile!, `${current === '' || current.endsWith('\n') ? '' : '\n'}.quartet/\n`)
        }
        return commonDir!
      })
    excluded.set(key, done)
    void done.catch(() => excluded.delete(key))
    return done
  }

  /** Where `root` sits inside its repository ('' at the top level, else 'sub/dir/'). */
  async function repoPrefix(root: string): Promise<string> {
    return (await git(root, ['rev-parse', '--show-prefix'])).trim().replace(/\/$/, '')
  }

  /** The commit each revision names, or null where it names none: one `git cat-file` for all of them. */
  async function resolveCommits(root: string, revisions: string[]): Promise<(string | null)[]> {
    const lines = (
      await git(root, ['cat-file', '--batch-check=%(objectname)'], revisions.map((revision) => `${revision}^{commit}\n`).join(''))
    ).split('\n')
    return revisions.map((_, index) => (/^[0-9a-f]{40,64}$/.test(lines[index] ?? '') ? lines[index]! : null))
  }

  /**
   * The task's worktree: reused as it is when it exists (resume), else a new branch from the
   * project's HEAD or, for a dependent task, from its dependencies' branches (the first, with the
   * others merged in), so it builds on their work.
   */
  function prepareWorktree(
    root: string,
    sprintId: string,
    taskKey: string,
    worktreesDir: string,
    baseBranches: readonly string[] = []
  ): Promise<PreparedWorktree> {
    return prepareNow(root, sprintId, taskKey, worktreesDir, [...new Set(baseBranches)])
  }

  async function prepareNow(
    root: string,
    sprintId: string,
    taskKey: string,
    worktreesDir: string,
    bases: string[]
  ): Promise<PreparedWorktree> {
    const commonDir = await excludeQuartetDir(root)
    const branch = `${BRANCH_PREFIX}${refSegment(sprintId)}/${refSegment(taskKey)}`
    const baseRef = `${BASE_REF_PREFIX}${refSegment(sprintId)}/${refSegment(taskKey)}`
    const wanted = path.join(worktreesDir, refSegment(sprintId), refSegment(taskKey))
    if (bases.length === 0) {
      const fresh = await addFreshFromHead(root, commonDir, branch, wanted)
      if (fresh) return fresh
    }
    const [rootHead, branchHead, ...baseHeads] = await resolveCommits(root, [
      'HEAD',
      `refs/heads/${branch}`,
      ...bases.map((base) => `refs/heads/${base}`)
    ])
    if (!rootHead) throw new Error('the repository has no commit yet: commit once, or set engine.use_worktrees to false')
    const occupied = () => fs.existsSync(wanted) && fs.readdirSync(wanted).length > 0
    const notOurs = () => new Error(`${wanted} exists and is not a worktree of branch ${branch}; it was left untouched`)

    if (branchHead) {
      return serialized(root, async () => {
        // A worktree whose directory vanished is only administrative residue; its branch stays.
        await run(root, ['worktree', 'prune'])
        const existing = (await listWorktrees(gitPort, root)).find((entry) => entry.branch === branch)
        if (existing) return { path: existing.path, branch, ...(await recordedBase(root, rootHead, branch, baseRef)), reused: true }
        if (occupied()) throw notOurs()
        fs.mkdirSync(path.dirname(wanted), { recursive: true })
        await git(root, ['worktree', 'add', wanted, branch])
        return { path: wanted, branch, ...(await recordedBase(root, rootHead, branch, baseRef)), reused: true }
      })
    }
    // No branch yet, so no worktree holds it: a fresh one.
    if (occupied()) throw notOurs()
    const missing = bases.filter((_, index) => !baseHeads[index])
    if (missing.length) throw new Error(`the branch of a dependency is gone (${missing.join(', ')}); its work cannot be built on`)
    fs.mkdirSync(path.dirname(wanted), { recursive: true })
    const start = bases.length ? baseHeads[0]! : rootHead
    // Remembered so a resumed attempt diffs against the same base, not against the project's HEAD.
    await addFresh(root, branch, wanted, start, bases.length === 1 ? baseRef : null)
    if (bases.length <= 1) return { path: wanted, branch, baseSha: start, baseBranches: bases, reused: false }
    await mergeBases(root, wanted, branch, bases)
    const baseSha = (await git(wanted, ['rev-parse', 'HEAD'])).trim()
    await git(root, ['update-ref', baseRef, baseSha])
    return { path: wanted, branch, baseSha, baseBranches: bases, reused: false }
  }

  /**
   * A new branch at `start` and its checked-out worktree, from as few git processes as possible:
   * every spawn blocks the job's event loop for a few milliseconds, which all workers share. Without
   * a base ref it is one `git worktree add -b`; with one, the branch and base ref are created in
   * one ref transaction first. Adds run side by side (shared hold of the repository): one add can
   * fail reading another's half-written admin directory, which is retried after a short pause;
   * any other failure prunes residue under the exclusive hold and tries once more. If that fails
   * too, the new refs are deleted again (only while they still point at `start`).
   */
  async function addFresh(root: string, branch: string, wanted: string, start: string, baseRef: string | null): Promise<void> {
    const refs = [`refs/heads/${branch}`, ...(baseRef ? [baseRef] : [])]
    if (baseRef) {
      // `create` fails when the branch appeared meanwhile; the base ref may be left from an earlier run, so it is overwritten.
      await git(root, ['update-ref', '--stdin'], `create ${refs[0]!} ${start}\nupdate ${baseRef} ${start}\n`)
    }
    let branchCreated = baseRef !== null
    // `-b` creates the branch before the worktree; after a failed add it may exist already.
    const add = () => (branchCreated ? ['worktree', 'add', wanted, branch] : ['worktree', 'add', '-b', branch, wanted, start])
    const branchExists = async () => (await run(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).code === 0
    try {
      const added = await addSharing(root, add, async () => {
        if (!branchCreated) branchCreated = await branchExists()
      })
      if (!added) {
        await serialized(root, async () => {
          await run(root, ['worktree', 'prune'])
          await git(root, add())
        })
      }
    } catch (error) {
      if (branchCreated || (await branchExists()))
        await run(root, ['update-ref', '--stdin'], refs.map((ref) => `delete ${ref} ${start}\n`).join(''))
      throw error
    }
  }

  /**
   * `git worktree add` under the shared hold of the repository, tried again after a short pause
   * while it fails only on another add's half-written admin directory; `afterFailure` runs after
   * every failed try (to notice a branch the failed add made). False when it did not succeed.
   */
  function addSharing(root: string, args: () => string[], afterFailure: () => Promise<void>): Promise<boolean> {
    return shared(root, async () => {
      for (let attempt = 0; attempt < RACED_ADD_RETRIES; attempt++) {
        const result = await run(root, args())
        if (result.code === 0) return true
        await afterFailure()
        if (!RACED_ADD.test(result.stderr)) return false
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20))
      }
      return false
    })
  }

  /**
   * The usual case, a task without dependencies on its first attempt, in one git process: `worktree
   * add -b` from HEAD, which git refuses atomically when the branch exists already (a resumed task).
   * Null when it cannot be done that way (branch or directory exists, no commit yet, or any other
   * failure): the caller then takes the careful path, which explains itself.
   */
  async function addFreshFromHead(root: string, commonDir: string, branch: string, wanted: string): Promise<PreparedWorktree | null> {
    if (fs.existsSync(wanted)) return null
    fs.mkdirSync(path.dirname(wanted), { recursive: true })
    let branchCreated = false
    // After a raced add that made the branch, the retry checks that branch out instead.
    const add = () => (branchCreated ? ['worktree', 'add', wanted, branch] : ['worktree', 'add', '-b', branch, wanted, 'HEAD'])
    const added = await addSharing(root, add, async () => {
      branchCreated ||= (await run(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).code === 0
    })
    if (!added) return null
    return { path: wanted, branch, baseSha: await branchSha(root, commonDir, branch), baseBranches: [], reused: false }
  }

  /** A branch's commit: its loose ref file when there is one (just created by git), else asked of git (packed refs, reftable). */
  async function branchSha(root: string, commonDir: string, branch: string): Promise<string> {
    try {
      const sha = fs.readFileSync(path.join(commonDir, 'refs', 'heads', ...branch.split('/')), 'utf8').trim()
      if (/^[0-9a-f]{40,64}$/.test(sha)) return sha
    } catch {
      // Not a loose ref: git knows where it is.
    }
    return (await git(root, ['rev-parse', '--verify', `refs/heads/${branch}^{commit}`])).trim()
  }

  /** Merges bases[1..] into the fresh worktree; on a conflict it is aborted and the fresh worktree and branch are removed again. */
  async function mergeBases(root: string, worktree: string, branch: string, bases: string[]): Promise<void> {
    const identity = await identityArgs(worktree)
    for (const base of bases.slice(1)) {
      const merged = await run(worktree, [...identity, 'merge', '--no-edit', '-q', `refs/heads/${base}`])
      if (merged.code === 0) continue
      const files = (await run(worktree, ['diff', '--name-only', '--diff-filter=U'])).stdout.split('\n').filter((file) => file !== '')
      await run(worktree, ['merge', '--abort'])
      // Both removals are unforced and safe: the worktree holds nothing but the dependencies' commits.
      await serialized(root, async () => {
        if ((await run(root, ['worktree', 'remove', worktree])).code === 0) await run(root, ['branch', '-D', branch])
      })
      if (files.length === 0) throw new Error(`could not merge ${base} into ${bases[0]!}: ${(merged.stderr || merged.stdout).trim()}`)
      throw new BaseMergeConflictError(bases.slice(0, bases.indexOf(base) + 1), files)
    }
  }

  async function recordedBase(
    root: string,
    rootHead: string,
    branch: string,
    baseRef: string
  ): Promise<{ baseSha: string; baseBranches: string[] }> {
    const recorded = await run(root, ['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`])
    if (recorded.code === 0) return { baseSha: recorded.stdout.trim(), baseBranches: [] }
    const base = await run(root, ['merge-base', rootHead, branch])
    return { baseSha: base.code === 0 ? base.stdout.trim() : rootHead, baseBranches: [] }
  }

  async function hasConfig(cwd: string, key: string): Promise<boolean> {
    const result = await run(cwd, ['config', '--get', key])
    return result.code === 0 && result.stdout.trim() !== ''
  }

  /** A fallback identity for commits git would otherwise refuse (no user.name/user.email configured). */
  async function identityArgs(cwd: string): Promise<string[]> {
    return [
      ...((await hasConfig(cwd, 'user.name')) ? [] : ['-c', 'user.name=Quartet']),
      ...((await hasConfig(cwd, 'user.email')) ? [] : ['-c', 'user.email=quartet@localhost'])
    ]
  }

  /** Stages everything and commits; null when there was nothing to commit. */
  async function commitAll(worktree: string, message: string): Promise<string | null> {
    await git(worktree, ['add', '-A'])
    if ((await run(worktree, ['diff', '--cached', '--quiet'])).code === 0) return null
    await git(worktree, [...(await identityArgs(worktree)), 'commit', '-q', '-m', message])
    return (await git(worktree, ['rev-parse', 'HEAD'])).trim()
  }

  /** Paths committed since baseSha, plus uncommitted and untracked ones, sorted and deduplicated. */
  async function changedFiles(worktree: string, baseSha: string): Promise<string[]> {
    // One `git status` answers when nothing was committed since the base (the usual case).
    const status = (await git(worktree, ['status', '--porcelain=v2', '--branch', '--no-renames', '--untracked-files=all', '-z'])).split(
      '\0'
    )
    if (status.includes(`# branch.oid ${baseSha}`)) {
      const files = status.flatMap((entry) => {
        if (entry.startsWith('? ')) return [entry.slice(2)]
        const fixedFields = entry.startsWith('1 ') ? 8 : entry.startsWith('u ') ? 10 : 0
        return fixedFields ? [entry.split(' ').slice(fixedFields).join(' ')] : []
      })
      return [...new Set(files)].sort()
    }
    const lists = await Promise.all([
      git(worktree, ['diff', '--name-only', '--no-renames', '-z', baseSha]),
      git(worktree, ['diff', '--name-only', '--no-renames', '-z', '--cached', baseSha]),
      git(worktree, ['ls-files', '--others', '--exclude-standard', '-z'])
    ])
    return [...new Set(lists.flatMap((list) => list.split('\0')).filter((file) => file !== ''))].sort()
  }

  /**
   * Removes a task worktree and its branch only when nothing in it can be lost: no uncommitted or
   * untracked file, and no commit that the project's current HEAD does not already contain.
   * Everything else is kept and reported. There is deliberately no force option.
   */
  function cleanupWorktrees(root: string, worktreesDir: string, options: { sprintId?: string } = {}): Promise<CleanupReport> {
    return serialized(root, () => cleanupNow(gitPort, root, worktreesDir, options))
  }

  return {
    isGitRepo,
    repoPrefix,
    prepareWorktree,
    commitAll,
    changedFiles,
    cleanupWorktrees,
    worktreeStatus: (worktree: string) => worktreeStatus(gitPort, worktree),
    listWorktrees: (root: string) => listWorktrees(gitPort, root)
  }
}
export type GitWorktrees = ReturnType<typeof createWorktrees>
