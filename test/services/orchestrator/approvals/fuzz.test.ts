import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNo5xx, fuzzOrchestrator } from '../../../helpers/orchestrator-fuzz.js'
import { requestPermission, startWithApprovals } from './helpers.js'

test(
  'fuzz: every approvals route, with requests present and decisions enabled, ' + 'never answers 5xx and rejected writes change nothing',
  async () => {
    const orch = await startWithApprovals()
    for (let i = 0; i < 3; i++) await requestPermission(orch, { command: `echo ${i}` })
    const accepted: string[] = []
    const report = await fuzzOrchestrator(orch, {
      runs: 40,
      authHeaders: () => ({ authorization: `Bearer ${orch.token}`, 'idempotency-key': `fuzz-${Math.random()}` }),
      skip: (_method, path) => !path.startsWith('/api/approvals'),
      onAccepted: (method, url) => accepted.push(`${method} ${url}`)
    })
    assert.ok(report.requests >= 6 * 30, `only ${report.requests} requests were sent`)
    assertNo5xx(report)
    assert.ok(
      accepted.some((a) => a.startsWith('GET /api/approvals')),
      'some reads were accepted'
    )
  }
)
