import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNo5xx, fuzzOrchestrator } from '../../../helpers/orchestrator-fuzz.js'
import { eventually, startOrchestrator } from '../../../helpers/orchestrator.js'

const AGENT = { kind: 'command', argv: ['/bin/sh', '-c', 'echo "$0" >> notes.txt', '{taskId}'] }
const STREAMS = /\/(events|stream)$|\/output-stream$/

test(
  'fuzz: random and malformed requests to every orchestrator route never get a 5xx, ' +
    'always {error}, and rejected writes change nothing',
  async () => {
    const orch = await startOrchestrator({
      env: { QUARTET_CONTROL_MUTATIONS: '1' },
      config: { agents: { sh: AGENT }, default_agent: 'sh' },
      directives: '# Fuzz\n\n## Task 1: one\nWrite notes.\n\n## Task 2: two\nDepends on: 1\n'
    })
    assert.equal((await orch.call('POST', '/api/plan')).status, 200)
    const report = await fuzzOrchestrator(orch, {
      runs: 25,
      // Streams never end on their own; starting jobs is covered by the concurrency test below.
      skip: (method, path) => STREAMS.test(path) || (method === 'POST' && /^\/api\/(start|kill)/.test(path))
    })
    assert.ok(report.requests > 200, `only ${report.requests} requests were sent`)
    // Every numeric path and query parameter was also sent Infinity, 1e309, NaN, … and rejected with a 4xx.
    assert.ok(report.nonFinite > 0, 'no numeric parameter was tried with non-finite numbers')
    assertNo5xx(report)
  }
)

test('20 concurrent POST /api/start start exactly one detached job; the others join it', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { sh: AGENT }, default_agent: 'sh' },
    directives: '## Task 1: one\nWrite notes.\n'
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const answers = await Promise.all(Array.from({ length: 20 }, () => orch.call('POST', '/api/start')))
  const created = answers.filter((a) => a.status === 202)
  assert.equal(created.length, 1, JSON.stringify(answers.map((a) => [a.status, a.json])))
  assert.ok(
    answers.every((a) => a.status === 202 || a.status === 200),
    JSON.stringify(answers.map((a) => a.status))
  )
  const jobIds = new Set(answers.map((a) => a.json.jobId as number))
  assert.equal(jobIds.size, 1)
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const rows = await orch.database.db.selectFrom('orch_jobs').selectAll().where('project_id', '=', projectId).execute()
  assert.equal(rows.length, 1)
  await eventually(
    async () => (await orch.repositories.jobs.get([...jobIds][0] as number))?.status === 'completed',
    60_000,
    'the job to complete'
  )
  // Once it ended, a new start needs a new plan.
  const again = await orch.call('POST', '/api/start')
  assert.equal(again.status, 409)
  assert.match(again.json.error, /plan/)
})
