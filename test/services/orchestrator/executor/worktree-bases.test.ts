import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { BaseMergeConflictError } from '../../../../src/services/orchestrator/engine/worktrees.js'
import { git, repoFixture, worktrees } from './helpers.js'

const repo = repoFixture()

/** A task branch with one committed file, as a DONE dependency leaves it. */
async function doneTask(root: string, worktreesDir: string, key: string, file: string, text: string, bases: string[] = []) {
  const wt = await worktrees.prepareWorktree(root, 's1', key, worktreesDir, bases)
  fs.writeFileSync(path.join(wt.path, file), text)
  const sha = await worktrees.commitAll(wt.path, `task ${key}`)
  assert.ok(sha)
  return { ...wt, sha }
}

test('a dependent worktree starts from its dependency branch; its base is that commit, also when resumed', async () => {
  const { root, worktreesDir } = repo('chain')
  const mainHead = git(root, 'rev-parse', 'HEAD')
  const one = await doneTask(root, worktreesDir, '1', 'one.txt', 'one\n')
  const two = await worktrees.prepareWorktree(root, 's1', '2', worktreesDir, [one.branch])
  assert.deepEqual([two.reused, two.baseSha, two.baseBranches], [false, one.sha, [one.branch]])
  assert.equal(fs.readFileSync(path.join(two.path, 'one.txt'), 'utf8'), 'one\n')
  assert.deepEqual(await worktrees.changedFiles(two.path, two.baseSha), [])
  fs.writeFileSync(path.join(two.path, 'two.txt'), 'two\n')
  const again = await worktrees.prepareWorktree(root, 's1', '2', worktreesDir, [one.branch])
  assert.deepEqual([again.reused, again.path, again.baseSha], [true, two.path, one.sha])
  assert.deepEqual(await worktrees.changedFiles(again.path, again.baseSha), ['two.txt'])
  assert.equal(git(root, 'rev-parse', 'HEAD'), mainHead)
})

test('two independent dependencies are merged into the new worktree, with the fallback identity when none is configured', async (t) => {
  const { root, worktreesDir } = repo('merge')
  const saved = { global: process.env.GIT_CONFIG_GLOBAL, nosystem: process.env.GIT_CONFIG_NOSYSTEM }
  process.env.GIT_CONFIG_GLOBAL = path.join(root, '..', 'no-global-config')
  process.env.GIT_CONFIG_NOSYSTEM = '1'
  t.after(() => {
    if (saved.global === undefined) delete process.env.GIT_CONFIG_GLOBAL
    else process.env.GIT_CONFIG_GLOBAL = saved.global
    if (saved.nosystem === undefined) delete process.env.GIT_CONFIG_NOSYSTEM
    else process.env.GIT_CONFIG_NOSYSTEM = saved.nosystem
  })
  const a = await doneTask(root, worktreesDir, 'a', 'a.txt', 'a\n')
  const b = await doneTask(root, worktreesDir, 'b', 'b.txt', 'b\n')
  git(root, 'config', '--unset', 'user.name')
  git(root, 'config', '--unset', 'user.email')
  const c = await worktrees.prepareWorktree(root, 's1', 'c', worktreesDir, [a.branch, b.branch])
  assert.deepEqual(c.baseBranches, [a.branch, b.branch])
  assert.equal(fs.readFileSync(path.join(c.path, 'a.txt'), 'utf8'), 'a\n')
  assert.equal(fs.readFileSync(path.join(c.path, 'b.txt'), 'utf8'), 'b\n')
  assert.equal(git(c.path, 'rev-parse', 'HEAD'), c.baseSha)
  assert.deepEqual(git(c.path, 'log', '-1', '--format=%P').split(' '), [a.sha, b.sha])
  assert.equal(git(c.path, 'log', '-1', '--format=%an'), 'Quartet')
  assert.equal((await worktrees.worktreeStatus(c.path)).clean, true)
})

test(
  'conflicting dependencies: a BaseMergeConflictError naming branches and files; ' +
    'their work is untouched, no half-made worktree is left',
  async () => {
    const { root, worktreesDir } = repo('conflict')
    const x = await doneTask(root, worktreesDir, 'x', 'shared.txt', 'from x\n')
    const y = await doneTask(root, worktreesDir, 'y', 'shared.txt', 'from y\n')
    fs.writeFileSync(path.join(y.path, 'draft.txt'), 'uncommitted in y\n')
    const error = await worktrees.prepareWorktree(root, 's1', 'z', worktreesDir, [x.branch, y.branch]).then(
      () => null,
      (e: unknown) => e
    )
    assert.ok(error instanceof BaseMergeConflictError)
    assert.deepEqual([error.branches, error.files], [[x.branch, y.branch], ['shared.txt']])
    assert.match(error.message, /quartet\/s1\/x, quartet\/s1\/y conflicts in shared\.txt/)
    assert.equal(git(root, 'rev-parse', x.branch), x.sha)
    assert.equal(git(root, 'rev-parse', y.branch), y.sha)
    assert.equal(fs.readFileSync(path.join(x.path, 'shared.txt'), 'utf8'), 'from x\n')
    assert.equal(fs.readFileSync(path.join(y.path, 'shared.txt'), 'utf8'), 'from y\n')
    assert.equal(fs.readFileSync(path.join(y.path, 'draft.txt'), 'utf8'), 'uncommitted in y\n')
    assert.equal(fs.existsSync(path.join(worktreesDir, 's1', 'z')), false)
    assert.equal(git(root, 'branch', '--list', 'quartet/s1/z'), '')
    // A later try (after the user resolved nothing) fails the same way instead of running on half the work.
    await assert.rejects(worktrees.prepareWorktree(root, 's1', 'z', worktreesDir, [x.branch, y.branch]), BaseMergeConflictError)
  }
)

test('a dependency branch that is gone is an error, not a silent start from HEAD', async () => {
  const { root, worktreesDir } = repo('gone')
  await assert.rejects(
    worktrees.prepareWorktree(root, 's1', 'n', worktreesDir, ['quartet/s1/missing']),
    /branch of a dependency is gone \(quartet\/s1\/missing\)/
  )
})
