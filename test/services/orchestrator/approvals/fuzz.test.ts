import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fuzzService } from '../../../helpers/fuzz.js'
import { requestPermission, startWithApprovals } from './helpers.js'

test(
  'fuzz: every approvals route, with requests present and decisions enabled, ' + 'never answers 5xx and rejected writes change nothing',
  async () => {
    const orch = await startWithApprovals()
    for (let i = 0; i < 3; i++) await requestPermission(orch, { command: `echo ${i}` })
    const accepted: string[] = []
    const report = await fuzzService({
      app: orch.app,
      openapi: orch.app.swagger(),
      database: orch.database,
      tablePrefix: 'orch_',
      authHeaders: () => ({ authorization: `Bearer ${orch.token}`, 'idempotency-key': `fuzz-${Math.random()}` }),
      isErrorBody: (body) => typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string',
      runsPerOperation: Number(process.env.FUZZ_RUNS ?? 40),
      skip: (_method, path) => !path.startsWith('/api/approvals'),
      onAccepted: (method, url) => accepted.push(`${method} ${url}`)
    })
    assert.ok(report.requests >= 6 * 30, `only ${report.requests} requests were sent`)
    assert.equal(Object.keys(report.byStatus).filter((s) => Number(s) >= 500).length, 0, JSON.stringify(report.byStatus))
    assert.ok(
      accepted.some((a) => a.startsWith('GET /api/approvals')),
      'some reads were accepted'
    )
  }
)
