import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNo5xx, fuzzOrchestrator } from '../../../helpers/orchestrator-fuzz.js'
import { eventually, startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

/** Two DONE tasks whose real branches both rewrite README.md: the second one cannot merge after the first. */
async function conflictingSprint(): Promise<OrchestratorHarness> {
  const directives = '## Task 1: one\nDo it.\n\n## Task 2: two\nDo it.\n'
  const orch = await startOrchestrator({ env: { QUARTET_CONTROL_MUTATIONS: '1' }, config: { agents: {} }, directives })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  for (const [i, content] of ['one\n', 'two\n'].entries()) {
    const id = `s1-${i + 1}`
    orch.project.git('checkout', '-q', '-b', `quartet/s1/${id}`, 'main')
    orch.project.write('README.md', content)
    orch.project.git('commit', '-q', '-am', `work of ${id}`)
    orch.project.git('checkout', '-q', 'main')
    await orch.database.db
      .updateTable('orch_tasks' as never)
      .set({ status: 'DONE', branch: `quartet/s1/${id}`, finished_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() } as never)
      .where('id' as never, '=', id as never)
      .execute()
  }
  return orch
}

async function mergeToEnd(orch: OrchestratorHarness): Promise<string> {
  const started = await orch.call('POST', '/api/merge', {})
  assert.equal(started.status, 202, started.body)
  await eventually(async () => (await orch.call('GET', `/api/merge/${started.json.id}`)).json.status !== 'running', 30_000, 'the merge')
  return started.json.id as string
}

test('GET /api/merge lists the queue newest first with per-task states and conflicted files, one page at a time', async () => {
  const orch = await conflictingSprint()
  const empty = await orch.call('GET', '/api/merge')
  assert.equal(empty.status, 200, empty.body)
  assert.deepEqual(empty.json, { runs: [], next: null })

  const first = await mergeToEnd(orch)
  const afterFirst = orch.project.git('rev-parse', 'main').trim()
  const second = await mergeToEnd(orch)
  assert.equal(orch.project.git('rev-parse', 'main').trim(), afterFirst, 'the conflicting task never lands')

  const all = await orch.call('GET', '/api/merge')
  assert.equal(all.status, 200, all.body)
  assert.deepEqual(
    all.json.runs.map((r: { id: string }) => r.id),
    [second, first]
  )
  assert.equal(all.json.next, null)
  const latest = all.json.runs[0]
  assert.equal(latest.status, 'failed')
  assert.deepEqual(
    latest.items.map((i: { taskId: string; status: string; files: string[] }) => [i.taskId, i.status, i.files]),
    [
      ['s1-1', 'MERGED', []],
      ['s1-2', 'CONFLICT', ['README.md']]
    ]
  )
  assert.equal('pid' in latest, false, 'process details stay internal')

  const page1 = await orch.call('GET', '/api/merge?limit=1')
  assert.deepEqual(
    page1.json.runs.map((r: { id: string }) => r.id),
    [second]
  )
  assert.equal(page1.json.next, second)
  const page2 = await orch.call('GET', `/api/merge?limit=1&before=${page1.json.next}`)
  assert.deepEqual(
    page2.json.runs.map((r: { id: string }) => r.id),
    [first]
  )
  assert.equal(page2.json.next, null)

  assert.equal((await orch.call('GET', '/api/merge?before=mrg_nope')).status, 404)
  assert.equal((await orch.call('GET', '/api/merge?limit=0')).status, 400)
  assert.equal((await orch.call('GET', '/api/merge?limit=101')).status, 400)
  assert.equal((await orch.call('GET', '/api/merge', undefined, { authorization: 'Bearer wrong' })).status, 403)
})

test('fuzz: malformed requests to GET /api/merge never get a 5xx and change nothing', async () => {
  const orch = await startOrchestrator({ config: { agents: {} } })
  const report = await fuzzOrchestrator(orch, {
    runs: 40,
    skip: (method, path) => !(method.toUpperCase() === 'GET' && path === '/api/merge')
  })
  assert.ok(report.requests > 20, `only ${report.requests} requests were sent`)
  assertNo5xx(report)
})
