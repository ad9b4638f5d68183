import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNo5xx, fuzzOrchestrator } from '../../../helpers/orchestrator-fuzz.js'
import { approve, flowServer, propose } from './helpers.js'

test('fuzz: malformed requests to every run-flow route never get a 5xx, always {error}, and rejected writes change nothing', async () => {
  const orch = await flowServer()
  // Real flows in each state, so fuzzed ids sometimes hit nothing and the rules still hold for the rest.
  await propose(orch)
  const approved = await propose(orch, 'Second note')
  await approve(orch, approved.flowId)
  const report = await fuzzOrchestrator(orch, {
    runs: 30,
    // The stream never ends on its own; starting a job is covered by the concurrency test.
    skip: (method, path) => !path.startsWith('/api/run-flow/') || path.endsWith('/events') || path.endsWith('/start')
  })
  assert.ok(report.requests > 150, `only ${report.requests} requests were sent`)
  assertNo5xx(report)
})
