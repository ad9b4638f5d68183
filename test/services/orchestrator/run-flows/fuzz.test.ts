import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fuzzService } from '../../../helpers/fuzz.js'
import { approve, flowServer, propose } from './helpers.js'

test('fuzz: malformed requests to every run-flow route never get a 5xx, always {error}, and rejected writes change nothing', async () => {
  const orch = await flowServer()
  // Real flows in each state, so fuzzed ids sometimes hit nothing and the rules still hold for the rest.
  await propose(orch)
  const approved = await propose(orch, 'Second note')
  await approve(orch, approved.flowId)
  const report = await fuzzService({
    app: orch.app,
    openapi: orch.app.swagger(),
    database: orch.database,
    tablePrefix: 'orch_',
    authHeaders: () => ({ authorization: `Bearer ${orch.token}` }),
    isErrorBody: (body) => typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string',
    runsPerOperation: Number(process.env.FUZZ_RUNS ?? 30),
    // The stream never ends on its own; starting a job is covered by the concurrency test.
    skip: (method, path) => !path.startsWith('/api/run-flow/') || path.endsWith('/events') || path.endsWith('/start')
  })
  assert.ok(report.requests > 150, `only ${report.requests} requests were sent`)
  assert.equal(Object.keys(report.byStatus).filter((s) => Number(s) >= 500).length, 0, JSON.stringify(report.byStatus))
})
