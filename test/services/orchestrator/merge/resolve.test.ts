import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { needsYou } from '../../../../src/services/orchestrator/cli/dashboard/model.js'
import { eventually } from '../../../helpers/orchestrator.js'
import { cli } from './helpers.js'
import { conflicting, scripts } from './resolvers.js'

test('--resolve-with: resolved on the task branch, nothing lands until review; a plain merge lands it and its dependents', async () => {
  const orch = await conflicting([{ files: { 'three.txt': '3\n' }, dependsOn: 2, finished: 3 }])
  const git = orch.project.git
  const before = git('rev-parse', 'quartet/s1/s1-2').trim()
  const result = await cli(orch, 'merge', '--resolve-with', 'fixer')
  assert.equal(result.code, 1, result.stdout + result.stderr)
  assert.match(result.stdout, /^MERGED\s+s1-1/m)
  assert.match(result.stdout, /^RESOLVED\s+s1-2 {2}conflicts resolved by fixer, not landed until reviewed/m)
  assert.match(result.stdout, /^\s+README\.md$/m)
  assert.match(result.stdout, /review it: quartet review s1-2, then land it: quartet merge --into main$/m)
  assert.match(result.stdout, new RegExp(`undo: git branch -f quartet/s1/s1-2 ${before}`))
  assert.match(result.stdout, /^SKIPPED\s+s1-3 {2}dependency s1-2 \(resolved by an agent, waiting for review\) is not merged$/m)
  assert.match(result.stdout, /^1\/3 merged into main/m)

  // Nothing of task 2 landed: main is task 1's merge, its README task 1's.
  const runs = (await orch.call('GET', '/api/merge')).json.runs
  const [one, two, three] = runs[0].items
  assert.equal(runs[0].status, 'failed')
  assert.match(runs[0].error, /s1-2 resolved by an agent and waiting for review: quartet review s1-2, then quartet merge lands it/)
  assert.equal(git('rev-parse', 'main').trim(), one.commitSha, 'the target did not move for the resolved task')
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'README.md'), 'utf8'), 'one\n')
  assert.equal(fs.existsSync(path.join(orch.project.root, 'two.txt')), false)
  // The resolution is the task branch's head (a merge of main into it); the old head is kept under a ref.
  assert.equal(two.status, 'RESOLVED')
  assert.deepEqual(two.files, ['README.md'])
  assert.equal(git('rev-parse', 'quartet/s1/s1-2').trim(), two.commitSha)
  assert.equal(git('rev-parse', `${two.commitSha}^1`).trim(), before)
  assert.equal(git('rev-parse', `refs/quartet-resolve/${runs[0].id}-1-before`).trim(), before)
  assert.equal(git('rev-parse', `refs/quartet-resolve/${runs[0].id}-1-resolved`).trim(), two.commitSha)
  assert.equal(git('show', `${two.commitSha}:README.md`), 'two\none\n')
  assert.equal(three.status, 'SKIPPED')
  // The terminal dashboard's Needs you, fed the real GET /api/merge answer.
  assert.deepEqual(needsYou(null, [], [], runs), [
    {
      kind: 'resolved',
      text: 's1-2 conflicts in README.md resolved by an agent, not landed in main',
      action: 'quartet review s1-2, then quartet merge',
      taskId: 's1-2'
    }
  ])
  const prompt = fs.readFileSync(path.join(scripts, 'fixer.prompt'), 'utf8')
  assert.match(prompt, /^- README\.md$/m)
  assert.match(prompt, /### README\.md: the task's side\n```\ntwo\n/)
  assert.match(prompt, /### README\.md: main's side\n```\none\n/)
  assert.equal(git('status', '--porcelain'), '')
  assert.equal(git('worktree', 'list').trim().split('\n').length, 1, 'the temporary resolve worktree is removed')

  // Review shows the branch against main: the task's changes and the resolution, with how to land or undo it.
  const diff = await orch.call('GET', '/api/sprint/task/s1-2/diff')
  assert.equal(diff.status, 200, diff.body)
  assert.equal(diff.json.base, one.commitSha)
  assert.equal(diff.json.head, two.commitSha)
  assert.deepEqual(
    diff.json.files.map((f: { path: string }) => f.path),
    ['README.md', 'two.txt']
  )
  assert.match(diff.json.diff, /^ one$/m)
  assert.match(diff.json.diff, /^\+two$/m)
  assert.deepEqual(diff.json.resolution, {
    mergeId: runs[0].id,
    target: 'main',
    commit: two.commitSha,
    before,
    files: ['README.md'],
    reason: two.reason,
    land: 'quartet merge s1 --into main',
    undo: `git branch -f quartet/s1/s1-2 ${before}`
  })
  const review = await cli(orch, 'review', 's1-2')
  assert.equal(review.code, 0, review.stdout + review.stderr)
  assert.match(review.stdout, /RESOLVED by an agent in merge \S+ \(conflicts in README\.md\), not landed: this is its branch against main/)
  assert.match(review.stdout, /^ {2}land it: quartet merge s1 --into main$/m)
  assert.match(review.stdout, new RegExp(`^  undo it: git branch -f quartet/s1/s1-2 ${before}`, 'm'))
  assert.match(review.stdout, /^\+two$/m)
  assert.equal(git('rev-parse', 'main').trim(), one.commitSha, 'review changes nothing')

  // A plain merge lands the reviewed resolution through the check and the compare-and-swap, then its dependent.
  const land = await cli(orch, 'merge')
  assert.equal(land.code, 0, land.stdout + land.stderr)
  assert.match(land.stdout, /^MERGED\s+s1-2/m)
  assert.match(land.stdout, /^MERGED\s+s1-3/m)
  const landed = (await orch.call('GET', '/api/merge')).json.runs[0]
  assert.equal(landed.status, 'done')
  assert.match(landed.items[1].reason, /the agent's resolution from merge \S+ landed after review/)
  assert.equal(git('merge-base', '--is-ancestor', two.commitSha, 'main'), '', 'main holds the resolution')
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'README.md'), 'utf8'), 'two\none\n')
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'three.txt'), 'utf8'), '3\n')
  assert.equal((await orch.call('GET', '/api/sprint/task/s1-2/diff')).json.resolution, undefined, 'landed: nothing waits')
  assert.deepEqual(needsYou(null, [], [], (await orch.call('GET', '/api/merge')).json.runs), [])
})

test('--resolve-with: an agent leaving conflicts, markers or a dirty tree, no commit: the task stays CONFLICT, nothing lands', async () => {
  const orch = await conflicting()
  const first = await cli(orch, 'merge', '--into', 'main')
  assert.match(first.stdout, /^CONFLICT\s+s1-2/m)
  const git = orch.project.git
  const main = git('rev-parse', 'main').trim()
  const branch = git('rev-parse', 'quartet/s1/s1-2').trim()
  const expectations: Array<[string, RegExp]> = [
    ['lazy', /lazy did not resolve: conflicts left unresolved in README\.md/],
    ['marker', /marker did not resolve: conflict markers left in README\.md \(its attempt is kept at refs\/quartet-resolve\//],
    ['dirty', /dirty did not resolve: it made no commit and left .*scratch\.txt uncommitted/]
  ]
  for (const [name, reason] of expectations) {
    const started = await orch.call('POST', '/api/merge', { resolveWith: name })
    assert.equal(started.status, 202, started.body)
    const done = await eventually(
      async () => {
        const now = await orch.call('GET', `/api/merge/${started.json.id}`)
        return now.json.status !== 'running' ? now.json : null
      },
      120_000,
      `the merge with ${name}`
    )
    const item = done.items.find((i: { taskId: string }) => i.taskId === 's1-2')
    assert.equal(item.status, 'CONFLICT', name)
    assert.match(item.reason, reason)
    assert.deepEqual(item.files, ['README.md'])
    assert.equal(git('rev-parse', 'main').trim(), main, `${name}: nothing landed`)
    assert.equal(git('rev-parse', 'quartet/s1/s1-2').trim(), branch, `${name}: the task branch is as it was`)
    assert.equal(git('status', '--porcelain'), '')
    assert.equal(git('worktree', 'list').trim().split('\n').length, 1)
  }
  assert.notEqual(git('for-each-ref', 'refs/quartet-resolve/'), '', "the marker agent's attempt is kept")
  const unknown = await orch.call('POST', '/api/merge', { resolveWith: 'nobody' })
  assert.equal(unknown.status, 400)
  assert.match(unknown.json.error, /nobody/)
})
