import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { assertNo5xx, fuzzOrchestrator } from '../../../helpers/orchestrator-fuzz.js'
import { startTestIdentityProvider } from '../../../helpers/idp.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

const OURS = /^\/api\/(enterprise|auth)\//

test('fuzz: enterprise and identity routes never 5xx, always {error}, and rejected writes change nothing', async () => {
  const idp = await startTestIdentityProvider('quartet-api')
  after(() => idp.close())
  const orch = await startOrchestrator({
    config: {
      api_oidc: { issuer: idp.issuer, audience: idp.audience },
      dashboard_oidc: { enabled: true, issuer: idp.issuer, client_id: 'dash', redirect_uri: 'http://127.0.0.1:1/cb' }
    }
  })
  assert.equal((await orch.call('POST', '/api/enterprise/tenants', { id: 'acme', name: 'Acme' })).status, 201)
  assert.equal((await orch.call('POST', '/api/enterprise/rate', { id: 'r1', endpoint: '/api/nothing/*', limit: 1000 })).status, 201)
  const report = await fuzzOrchestrator(orch, {
    runs: 25,
    ignoreTables: ['orch_audit_log'],
    skip: (_method, path) => !OURS.test(path)
  })
  assert.ok(report.requests > 100, `only ${report.requests} requests were sent`)
  assertNo5xx(report)
  // The chain stayed whole through every accepted and rejected request.
  const verified = await orch.call('GET', '/api/enterprise/audit/verify')
  assert.equal(verified.json.ok, true, verified.body)
})
