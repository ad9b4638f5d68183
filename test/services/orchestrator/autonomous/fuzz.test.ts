import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNo5xx, fuzzOrchestrator } from '../../../helpers/orchestrator-fuzz.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

const NEW_ROUTES = /^\/api\/(autonomous|nervous|evolution|reactive|webhooks)(\/|$)/

test('fuzz: autonomous, nervous, evolution, ingress: no 5xx, {error} on every 4xx, rejected writes change nothing', async () => {
  process.env.D2_FUZZ_SECRET = 'fuzz-secret-value'
  // Accepted reactive input waits for approval (nothing runs); the detectors are off so that
  // only requests write to the tables the fuzzer compares.
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: {
      autonomous: { policy: 'approval-required' },
      nervous: { enabled: false },
      ingress: {
        connectors: { gen: { type: 'generic', secret_env: 'D2_FUZZ_SECRET' }, slack: { type: 'slack', secret_env: 'D2_FUZZ_SECRET' } }
      }
    }
  })
  let accepted = 0
  const report = await fuzzOrchestrator(orch, {
    runs: 40,
    skip: (_method, path) => !NEW_ROUTES.test(path),
    onAccepted: () => {
      accepted++
    }
  })
  // 14 operations: 4 + 2 autonomous, reactive, webhooks, 3 + 3 nervous, 3 evolution.
  assert.ok(report.requests >= 14 * 40 * 0.9, `only ${report.requests} requests were sent`)
  assertNo5xx(report)
  assert.ok(accepted > 0, 'no request was accepted')
})
