import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { createGit } from '../../../../src/services/orchestrator/engine/git.js'
import { createWorktrees } from '../../../../src/services/orchestrator/engine/worktrees.js'
import { git, repoFixture, worktrees } from './helpers.js'

const repo = repoFixture()

const refExists = (root: string, ref: string) => spawnSync('git', ['rev-parse', '--verify', '--quiet', ref], { cwd: root }).status === 0

test('eight worktrees prepared at once in one repository: each on its own branch from HEAD, checked out and clean', async () => {
  const { root, worktreesDir } = repo('parallel')
  const head = git(root, 'rev-parse', 'HEAD')
  const keys = Array.from({ length: 8 }, (_, i) => `t${i + 1}`)
  const prepared = await Promise.all(keys.map((key) => worktrees.prepareWorktree(root, 's1', key, worktreesDir)))
  for (const [index, wt] of prepared.entries()) {
    assert.deepEqual([wt.branch, wt.baseSha, wt.reused], [`quartet/s1/${keys[index]!}`, head, false])
    assert.equal(git(wt.path, 'symbolic-ref', '--short', 'HEAD'), wt.branch)
    assert.equal(fs.readFileSync(path.join(wt.path, 'README.md'), 'utf8'), '# project\n')
    assert.equal((await worktrees.worktreeStatus(wt.path)).clean, true)
  }
  assert.equal((await worktrees.listWorktrees(root)).length, 9)
})

test('a worktree that git cannot add leaves neither the new branch nor its base ref behind', async () => {
  const { root, worktreesDir } = repo('add-fails')
  git(root, 'branch', 'quartet/s1/dep')
  // The task's path is still registered to a locked worktree whose directory is gone: prune keeps it, so the add fails twice.
  const wanted = path.join(worktreesDir, 's1', 't1')
  git(root, 'worktree', 'add', '-q', '-b', 'someone-else', wanted)
  git(root, 'worktree', 'lock', wanted)
  fs.rmSync(wanted, { recursive: true, force: true })

  await assert.rejects(worktrees.prepareWorktree(root, 's1', 't1', worktreesDir, ['quartet/s1/dep']), /missing but locked worktree/)
  assert.equal(refExists(root, 'refs/heads/quartet/s1/t1'), false)
  assert.equal(refExists(root, 'refs/quartet-base/s1/t1'), false)
  assert.equal(refExists(root, 'refs/heads/someone-else'), true)

  // Once the path is free the task is prepared afresh from its dependency, as if the failure never happened.
  git(root, 'worktree', 'unlock', wanted)
  git(root, 'worktree', 'prune')
  const wt = await worktrees.prepareWorktree(root, 's1', 't1', worktreesDir, ['quartet/s1/dep'])
  assert.deepEqual([wt.reused, wt.baseSha, wt.baseBranches], [false, git(root, 'rev-parse', 'quartet/s1/dep'), ['quartet/s1/dep']])
  assert.equal(git(root, 'rev-parse', 'refs/quartet-base/s1/t1'), wt.baseSha)
})

test(
  'a dependency branch and the project HEAD are resolved by name, ' + 'not guessed: a tag named like the branch is not taken for it',
  async () => {
    const { root, worktreesDir } = repo('resolve')
    const head = git(root, 'rev-parse', 'HEAD')
    git(root, 'commit', '-q', '--allow-empty', '-m', 'later')
    git(root, 'tag', 'quartet/s1/dep', 'HEAD')
    git(root, 'branch', 'quartet/s1/dep', head)
    const wt = await worktrees.prepareWorktree(root, 's1', 't1', worktreesDir, ['quartet/s1/dep'])
    assert.equal(wt.baseSha, head)
    await assert.rejects(
      worktrees.prepareWorktree(root, 's1', 't2', worktreesDir, ['quartet/s1/gone']),
      /branch of a dependency is gone \(quartet\/s1\/gone\)/
    )
    assert.equal(refExists(root, 'refs/heads/quartet/s1/t2'), false)
  }
)

test(
  'a task without dependencies gets its worktree from one git process; ' + 'its base is HEAD at that moment; a resumed one is found again',
  async () => {
    const { root, worktreesDir } = repo('one-process')
    const spawned: string[][] = []
    const counting = createWorktrees(
      createGit({
        spawn: ((command: string, args: string[], options: object) => {
          // The git port prefixes every call with `-c core.quotePath=false`.
          spawned.push(args.slice(2))
          return spawn(command, args, options)
        }) as typeof spawn
      })
    )
    await counting.prepareWorktree(root, 's1', 'first', worktreesDir) // the repository's one-time facts
    git(root, 'commit', '-q', '--allow-empty', '-m', 'moved on')
    const head = git(root, 'rev-parse', 'HEAD')

    spawned.length = 0
    const fresh = await counting.prepareWorktree(root, 's1', 't1', worktreesDir)
    assert.deepEqual(
      spawned.map((args) => args.slice(0, 2).join(' ')),
      ['worktree add']
    )
    assert.deepEqual([fresh.baseSha, fresh.reused, git(fresh.path, 'rev-parse', 'HEAD')], [head, false, head])

    // Its worktree deleted by hand, the branch (with a commit on it) is checked out again, not made anew.
    fs.writeFileSync(path.join(fresh.path, 'work.txt'), 'kept\n')
    git(fresh.path, 'add', 'work.txt')
    git(fresh.path, 'commit', '-q', '-m', 'work')
    fs.rmSync(fresh.path, { recursive: true, force: true })
    const again = await counting.prepareWorktree(root, 's1', 't1', worktreesDir)
    assert.deepEqual([again.reused, again.baseSha, fs.readFileSync(path.join(again.path, 'work.txt'), 'utf8')], [true, head, 'kept\n'])
  }
)
