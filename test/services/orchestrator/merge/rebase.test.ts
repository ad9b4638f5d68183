import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { eventually } from '../../../helpers/orchestrator.js'
import { cli, doneSprint } from './helpers.js'

test('--strategy rebase: tasks replayed in order (linear, authors and messages kept), tree updated, re-run idempotent', async () => {
  const orch = await doneSprint([
    { commits: [{ 'a.txt': 'a1\n' }, { 'a.txt': 'a2\n', 'a-more.txt': 'm\n' }], finished: 2, author: 'Ada <ada@example.com>' },
    { files: { 'b.txt': 'b\n' }, dependsOn: 1, finished: 1 },
    { files: { 'c.txt': 'c\n' }, finished: 3 }
  ])
  // The target moves after the branches were made: the replay lands on top of it.
  orch.project.write('main-only.txt', 'moved\n')
  orch.project.git('add', '-A')
  orch.project.git('commit', '-q', '-m', 'target moved')
  const base = orch.project.git('rev-parse', 'main').trim()
  const result = await cli(orch, 'merge', '--strategy', 'rebase')
  assert.equal(result.code, 0, result.stdout + result.stderr)
  assert.deepEqual(
    [...result.stdout.matchAll(/^MERGED\s+(s1-\d)/gm)].map((m) => m[1]),
    ['s1-1', 's1-2', 's1-3']
  )
  const git = orch.project.git
  assert.equal(git('rev-list', '--merges', `${base}..main`), '', 'no merge commit: linear history')
  assert.equal(git('rev-list', '--count', `${base}..main`).trim(), '4', 'every commit of every task, one by one')
  assert.deepEqual(git('log', '--format=%an|%s', `${base}..main`).trim().split('\n').reverse(), [
    'Ada|work of s1-1',
    'Ada|work of s1-1 (2)',
    'Dev|work of s1-2',
    'Dev|work of s1-3'
  ])
  const last = git('log', '-1', '--format=%B', 'main')
  assert.match(last, /^quartet-task: s1-3$/m)
  assert.match(last, /^quartet-merge: mrg/m)
  assert.equal(git('rev-parse', 'main~4').trim(), base)
  for (const [file, content] of Object.entries({ 'a.txt': 'a2\n', 'a-more.txt': 'm\n', 'b.txt': 'b\n', 'c.txt': 'c\n' }))
    assert.equal(fs.readFileSync(path.join(orch.project.root, file), 'utf8'), content, file)
  assert.equal(git('status', '--porcelain', '--untracked-files=no'), '')
  assert.equal(git('for-each-ref', 'refs/quartet-merge/'), '')
  const head = git('rev-parse', 'main').trim()
  const again = await cli(orch, 'merge', '--strategy', 'rebase')
  assert.equal(again.code, 0, again.stdout)
  assert.equal(git('rev-parse', 'main').trim(), head, 'nothing replayed twice')
})

test('--strategy rebase: a conflict (whole branch, or one replayed commit) is reported with its file and nothing is touched', async () => {
  const orch = await doneSprint([
    { files: { 'README.md': 'one\n' }, finished: 1 },
    { files: { 'README.md': 'two\n' }, finished: 2 },
    // Net change to README.md: none, so the branch as a whole merges cleanly; its first commit does not.
    { commits: [{ 'README.md': 'three\n', 'x.txt': 'x\n' }, { 'README.md': '# demo project\n' }], finished: 3 }
  ])
  orch.project.write('README.md', 'target\n')
  orch.project.git('commit', '-q', '-am', 'target edits README')
  const before = orch.project.git('rev-parse', 'main').trim()
  const result = await cli(orch, 'merge', '--strategy', 'rebase')
  assert.equal(result.code, 1)
  assert.match(result.stdout, /^CONFLICT\s+s1-1\s+conflicts in README\.md\n\s+README\.md$/m)
  assert.match(result.stdout, /^CONFLICT\s+s1-2 /m)
  assert.match(result.stdout, /^CONFLICT\s+s1-3\s+conflicts in README\.md \(replaying [0-9a-f]{10}\)$/m)
  assert.equal(orch.project.git('rev-parse', 'main').trim(), before)
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'README.md'), 'utf8'), 'target\n')
  assert.equal(orch.project.git('status', '--porcelain'), '')
  assert.equal(orch.project.git('worktree', 'list').trim().split('\n').length, 1)
})

test('POST /api/merge {strategy: rebase}: a failing check on the replayed tree leaves the target unchanged', async () => {
  const orch = await doneSprint([{ files: { 'bad.txt': 'x\n' }, finished: 1 }], { check: { command: 'test ! -f bad.txt' } })
  const before = orch.project.git('rev-parse', 'main').trim()
  const started = await orch.call('POST', '/api/merge', { strategy: 'rebase' })
  assert.equal(started.status, 202, started.body)
  assert.equal(started.json.strategy, 'rebase')
  const done = await eventually(
    async () => {
      const now = await orch.call('GET', `/api/merge/${started.json.id}`)
      return now.json.status !== 'running' ? now.json : null
    },
    30_000,
    'the merge to end'
  )
  assert.equal(done.items[0].status, 'CHECK_FAILED', JSON.stringify(done))
  assert.equal(orch.project.git('rev-parse', 'main').trim(), before)
  assert.equal(orch.project.git('for-each-ref', 'refs/quartet-merge/'), '')
})
