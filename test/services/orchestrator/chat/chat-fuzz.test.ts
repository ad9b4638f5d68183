import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNo5xx, fuzzOrchestrator } from '../../../helpers/orchestrator-fuzz.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

test('fuzz: malformed requests to POST /api/chat never get a 5xx and change nothing', async () => {
  const orch = await startOrchestrator({ git: false })
  const report = await fuzzOrchestrator(orch, {
    runs: 60,
    skip: (method, path) => path !== '/api/chat'
  })
  assert.ok(report.requests >= 60, `only ${report.requests} requests were sent`)
  assertNo5xx(report)
})
