import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { eventually } from '../../../helpers/orchestrator.js'
import { cli } from './helpers.js'
import { conflicting } from './resolvers.js'

/** The merge items of the newest run, by task. */
async function newestRun(orch: Awaited<ReturnType<typeof conflicting>>) {
  const run = (await orch.call('GET', '/api/merge')).json.runs[0]
  return { run, item: (id: string) => run.items.find((i: { taskId: string }) => i.taskId === id) }
}

test('--strategy rebase: the reviewed resolution lands on the second run as one commit, not a replay of the commits', async () => {
  const orch = await conflicting()
  const git = orch.project.git
  const first = await cli(orch, 'merge', '--strategy', 'rebase', '--resolve-with', 'fixer')
  assert.equal(first.code, 1, first.stdout + first.stderr)
  const { item } = await newestRun(orch)
  assert.equal(item('s1-2').status, 'RESOLVED')
  const target = git('rev-parse', 'main').trim()
  assert.equal(target, item('s1-1').commitSha, 'the resolved task did not land')

  const second = await cli(orch, 'merge', '--strategy', 'rebase')
  assert.equal(second.code, 0, second.stdout + second.stderr)
  assert.match(second.stdout, /^MERGED\s+s1-2/m)
  assert.equal(git('rev-list', '--count', `${target}..main`).trim(), '1', 'one commit')
  assert.equal(git('rev-list', '--count', '--merges', `${target}..main`).trim(), '0', 'linear')
  assert.equal(git('rev-parse', 'main^').trim(), target)
  assert.match(git('log', '-1', '--format=%B', 'main'), /^s1-2: task 2\n\nquartet-task: s1-2\nquartet-merge: /)
  assert.equal(git('show', 'main:README.md'), 'two\none\n')
  assert.equal(git('show', 'main:two.txt'), '2\n')
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'README.md'), 'utf8'), 'two\none\n')

  const again = await cli(orch, 'merge', '--strategy', 'rebase')
  assert.equal(again.code, 0, again.stdout + again.stderr)
  assert.equal((await newestRun(orch)).item('s1-2').reason, 'already in the target')
  assert.equal(git('rev-list', '--count', `${target}..main`).trim(), '1', 'nothing lands twice')
})

test('a branch moved after its resolution is a normal branch again: replayed under rebase, merged as it is under merge', async () => {
  const orch = await conflicting()
  const git = orch.project.git
  assert.equal((await cli(orch, 'merge', '--resolve-with', 'fixer')).code, 1)
  const target = git('rev-parse', 'main').trim()
  git('checkout', '-q', 'quartet/s1/s1-2')
  orch.project.write('later.txt', 'after the resolution\n')
  git('add', 'later.txt')
  git('commit', '-q', '-m', 'more work after the resolution')
  git('checkout', '-q', 'main')
  const moved = git('rev-parse', 'quartet/s1/s1-2').trim()

  // Not squashed: the task's own commits are replayed, and the first meets the conflict it had.
  const rebase = await cli(orch, 'merge', '--strategy', 'rebase')
  assert.equal(rebase.code, 1, rebase.stdout + rebase.stderr)
  assert.match(rebase.stdout, /^CONFLICT\s+s1-2 {2}conflicts in README\.md \(replaying [0-9a-f]{10}\)$/m)
  assert.equal(git('rev-parse', 'main').trim(), target)

  const merge = await cli(orch, 'merge')
  assert.equal(merge.code, 0, merge.stdout + merge.stderr)
  const { item } = await newestRun(orch)
  assert.equal(item('s1-2').status, 'MERGED')
  assert.equal(item('s1-2').reason, null, 'landed as a normal branch, not as the reviewed resolution')
  assert.equal(git('rev-parse', 'main^1').trim(), target)
  assert.equal(git('rev-parse', 'main^2').trim(), moved, 'a merge commit of the moved branch')
  assert.equal(git('show', 'main:later.txt'), 'after the resolution\n')
})

/** Waits for a POST /api/merge run to end and returns it. */
async function finished(orch: Awaited<ReturnType<typeof conflicting>>, id: string) {
  return eventually(
    async () => {
      const now = await orch.call('GET', `/api/merge/${id}`)
      return now.json.status !== 'running' ? now.json : null
    },
    120_000,
    `merge ${id}`
  )
}

for (const via of ['cli', 'http'] as const) {
  test(`two merges started at once on a RESOLVED task (${via}): exactly one lands it`, async (t) => {
    const orch = await conflicting()
    const git = orch.project.git
    assert.equal((await cli(orch, 'merge', '--strategy', 'rebase', '--resolve-with', 'fixer')).code, 1)
    const target = git('rev-parse', 'main').trim()

    const ran: Array<{ status: string; items: Array<{ taskId: string; status: string; reason: string | null }> }> = []
    if (via === 'cli') {
      const both = await Promise.all([cli(orch, 'merge', '--strategy', 'rebase'), cli(orch, 'merge', '--strategy', 'rebase')])
      for (const r of both) {
        // The other either ran too (and found the task landed) or was turned away while the first ran.
        if (r.code !== 0) assert.match(r.stderr, /one merge queue per project at a time/, r.stdout + r.stderr)
        const id = /\(merge (\S+)\)\./.exec(r.stdout)?.[1]
        if (id) ran.push((await orch.call('GET', `/api/merge/${id}`)).json)
      }
    } else {
      const both = await Promise.all([1, 2].map(() => orch.call('POST', '/api/merge', { strategy: 'rebase' })))
      // Started in the same instant: the check for a running merge and the queueing are one step, so one is refused.
      assert.deepEqual(both.map((r) => r.status).sort(), [202, 409], both.map((r) => r.body).join('\n'))
      for (const r of both) {
        if (r.status === 409) assert.match(r.json.error, /one merge queue per project at a time/)
        else ran.push(await finished(orch, r.json.id))
      }
    }
    // Two CLI processes may also run one after the other (the second then finds the task landed).
    t.diagnostic(`${ran.length} of the two merges ran`)
    assert.ok(ran.length >= 1)
    for (const run of ran) {
      assert.equal(run.status, 'done', JSON.stringify(run))
      assert.equal(run.items.find((i) => i.taskId === 's1-2')!.status, 'MERGED')
    }
    assert.equal(git('rev-list', '--count', `${target}..main`).trim(), '1', 'the resolution landed once')
    assert.equal(git('log', '--format=%H', '--grep=^quartet-task: s1-2$', 'main').trim().split('\n').length, 1)
    assert.equal(git('show', 'main:README.md'), 'two\none\n')
    assert.equal(git('status', '--porcelain'), '')
  })
}
