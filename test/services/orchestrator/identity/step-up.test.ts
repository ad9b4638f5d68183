import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { startTestIdentityProvider } from '../../../helpers/idp.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

const idp = await startTestIdentityProvider('quartet-api')
after(() => idp.close())

async function pendingRequest(orch: Awaited<ReturnType<typeof startOrchestrator>>): Promise<string> {
  const created = await orch.call('POST', '/api/approvals/requests', {
    toolName: 'Bash',
    input: { command: 'rm -rf build' },
    requester: 'agent-1'
  })
  assert.equal(created.status, 201, created.body)
  return created.json.request.id as string
}

test('with approval.authority, an HTTP decision needs an OIDC sign-in younger than max_age_seconds', async () => {
  const orch = await startOrchestrator({
    config: {
      api_oidc: { issuer: idp.issuer, audience: idp.audience },
      approval: { api_decide: true, authority: { max_age_seconds: 300 } }
    }
  })
  const now = Math.floor(Date.now() / 1000)
  let key = 0
  const decide = (id: string, headers: Record<string, string> = {}) =>
    orch.call('POST', `/api/approvals/${id}/decision`, { decision: 'allow' }, { 'idempotency-key': `k-${++key}`, ...headers })

  const id = await pendingRequest(orch)
  const byToken = await decide(id)
  assert.equal(byToken.status, 401, 'the API token is no step-up')
  assert.match(String(byToken.headers['www-authenticate']), /insufficient_user_authentication.*max_age=300/)
  const stale = await decide(id, { authorization: `Bearer ${await idp.mint({ sub: 'ops', role: 'operator', auth_time: now - 3600 })}` })
  assert.equal(stale.status, 401, 'a sign-in an hour old is not fresh')
  // Still undecided: the fresh decision below is the first (a second would be 409).

  const fresh = await decide(id, { authorization: `Bearer ${await idp.mint({ sub: 'ops', role: 'operator', auth_time: now - 10 })}` })
  assert.equal(fresh.status, 200, fresh.body)
  assert.equal(fresh.json.decision.decision, 'allow')
})

test('without approval.authority the API token decides as before', async () => {
  const orch = await startOrchestrator({ config: { approval: { api_decide: true } } })
  const id = await pendingRequest(orch)
  assert.equal((await orch.call('POST', `/api/approvals/${id}/decision`, { decision: 'deny' }, { 'idempotency-key': 'k-1' })).status, 200)
})
