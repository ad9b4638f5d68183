import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNo5xx, fuzzOrchestrator } from '../../../helpers/orchestrator-fuzz.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

const NEW_ROUTES = /^\/api\/(process|missions|rpc)(\/|$)/

test('fuzz: process, missions and RPC routes never answer 5xx, always {error} on 4xx, and rejected writes change nothing', async () => {
  // Accepted submissions park (approval-required), so the fuzzer never starts agent jobs.
  const orch = await startOrchestrator({
    config: { agents: { sh: { kind: 'command', argv: ['/bin/true'] } }, default_agent: 'sh', process: { policy: 'approval-required' } }
  })
  let accepted = 0
  const report = await fuzzOrchestrator(orch, {
    runs: 60,
    skip: (_method, path) => !NEW_ROUTES.test(path),
    onAccepted: () => {
      accepted++
    }
  })
  assert.ok(report.requests >= 5 * 60 * 0.9, `only ${report.requests} requests were sent`)
  assertNo5xx(report)
  assert.ok(accepted > 0, 'no request was accepted')
})
