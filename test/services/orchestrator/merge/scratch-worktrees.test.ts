import assert from 'node:assert/strict'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { createGit } from '../../../../src/services/orchestrator/engine/git.js'
import { removeScratchWorktrees } from '../../../../src/services/orchestrator/modules/merge/scratch-worktrees.js'

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

test('a merge run killed inside `git worktree add`: its half-written worktree entries are removed and git works again', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-scratch-'))
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))
  const root = path.join(tmp, 'project')
  fs.mkdirSync(root)
  git(root, 'init', '-q', '-b', 'main')
  git(root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'base')
  const scratch = path.join(tmp, 'data', 'orchestrator', 'merge-check', 'mrg-run1')
  // A finished scratch tree of the dead run, one of another run, and the entry a kill left before gitdir/commondir were written.
  git(root, 'worktree', 'add', '-q', '--detach', `${scratch}-0`)
  git(root, 'worktree', 'add', '-q', '--detach', path.join(tmp, 'data', 'orchestrator', 'merge-check', 'mrg-run2-0'))
  const broken = path.join(root, '.git', 'worktrees', 'mrg-run1-1')
  fs.mkdirSync(broken)
  // `git worktree add` writes locked, then gitdir, then commondir: killed in between, commondir is empty.
  fs.writeFileSync(path.join(broken, 'locked'), 'initializing')
  fs.writeFileSync(path.join(broken, 'gitdir'), `${scratch}-1/.git\n`)
  fs.writeFileSync(path.join(broken, 'commondir'), '')
  assert.notEqual(spawnSync('git', ['worktree', 'list'], { cwd: root }).status, 0, 'the half-written entry breaks git worktree')

  await removeScratchWorktrees(createGit({ spawn }), root, 'mrg-run1', [scratch])

  const trees = git(root, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))
  assert.deepEqual(trees.map((tree) => path.basename(tree)).sort(), ['mrg-run2-0', 'project'], 'only the other run is left')
  assert.equal(fs.existsSync(`${scratch}-0`), false)
  assert.equal(fs.existsSync(broken), false)
})
