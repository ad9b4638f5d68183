import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fuzzService } from '../../../helpers/fuzz.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

test('fuzz: malformed requests to POST /api/chat never get a 5xx and change nothing', async () => {
  const orch = await startOrchestrator({ git: false })
  const report = await fuzzService({
    app: orch.app,
    openapi: orch.app.swagger(),
    database: orch.database,
    tablePrefix: 'orch_',
    authHeaders: () => ({ authorization: `Bearer ${orch.token}` }),
    isErrorBody: (body) => typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string',
    runsPerOperation: Number(process.env.FUZZ_RUNS ?? 60),
    skip: (method, path) => path !== '/api/chat'
  })
  assert.ok(report.requests >= 60, `only ${report.requests} requests were sent`)
  assert.equal(Object.keys(report.byStatus).filter((s) => Number(s) >= 500).length, 0, JSON.stringify(report.byStatus))
})
