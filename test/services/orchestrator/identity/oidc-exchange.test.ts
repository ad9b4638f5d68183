import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { base64url } from 'jose'
import { startTestIdentityProvider } from '../../../helpers/idp.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

const SECRET = 'client-secret-3f9a7c1e5b'
process.env.QUARTET_TEST_DASHBOARD_SECRET = SECRET
const idp = await startTestIdentityProvider('unused')
after(() => idp.close())
const dashboard = {
  enabled: true,
  issuer: idp.issuer,
  client_id: 'quartet-dashboard',
  client_secret_env: 'QUARTET_TEST_DASHBOARD_SECRET',
  redirect_uri: 'http://127.0.0.1:3100/callback'
}
const orch = await startOrchestrator({ config: { dashboard_oidc: dashboard } })
const VERIFIER = 'v'.repeat(43) + '-._~'
/** Every body the server answered in this file: the client secret must be in none. */
const bodies: string[] = []

async function exchange(target: typeof orch, body: unknown) {
  const response = await target.app.inject({ method: 'POST', url: '/api/auth/oidc/exchange', payload: body as object })
  bodies.push(response.body)
  return { status: response.statusCode, json: response.json() as Record<string, any> }
}

test('disabled: no dashboard_oidc, enabled false or a missing field answer 404 oidc_disabled', async () => {
  const none = await startOrchestrator()
  assert.deepEqual(await exchange(none, { code: 'c', code_verifier: VERIFIER }), { status: 404, json: { error: 'oidc_disabled' } })
  const off = await startOrchestrator({ config: { dashboard_oidc: { ...dashboard, enabled: false } } })
  assert.equal((await exchange(off, { code: 'c', code_verifier: VERIFIER })).json.error, 'oidc_disabled')
  const partial = await startOrchestrator({ config: { dashboard_oidc: { enabled: true, issuer: idp.issuer } } })
  assert.equal((await exchange(partial, { code: 'c', code_verifier: VERIFIER })).status, 404)
})

test('a missing code or verifier is invalid_request and the identity provider is not called', async () => {
  const before = idp.requests.length
  for (const body of [
    {},
    { code: 'c' },
    { code_verifier: VERIFIER },
    { code: '', code_verifier: VERIFIER },
    { code: 'c', code_verifier: 'short' },
    { code: 7 }
  ]) {
    const answered = await exchange(orch, body)
    assert.equal(answered.status, 400, JSON.stringify(body))
    assert.equal(answered.json.error, 'invalid_request')
  }
  assert.equal(idp.requests.length, before, 'no request reached the IdP')
})

test('success: discovery, token endpoint with PKCE and the secret, id_token verified; the session token is a bearer', async () => {
  const code = idp.issueCode({ sub: 'u-42', email: 'grace@example.com', name: 'Grace', role: 'operator', tenant: 'acme' }, VERIFIER)
  const from = idp.requests.length
  const answered = await exchange(orch, { code, code_verifier: VERIFIER })
  assert.equal(answered.status, 200, JSON.stringify(answered.json))
  assert.deepEqual(answered.json.claims, { sub: 'u-42', email: 'grace@example.com', name: 'Grace', role: 'operator', tenant: 'acme' })
  const calls = idp.requests.slice(from)
  assert.deepEqual(
    calls.map((r) => `${r.method} ${r.url}`),
    ['GET /.well-known/openid-configuration', 'POST /token', 'GET /.well-known/jwks.json']
  )
  const form = new URLSearchParams(calls[1]?.body)
  assert.equal(form.get('grant_type'), 'authorization_code')
  assert.equal(form.get('code_verifier'), VERIFIER)
  assert.equal(form.get('client_id'), 'quartet-dashboard')
  assert.equal(form.get('client_secret'), SECRET)
  assert.equal(form.get('redirect_uri'), dashboard.redirect_uri)

  const me = await orch.call('GET', '/api/auth/me', undefined, { authorization: `Bearer ${answered.json.token}` })
  assert.equal(me.status, 200, me.body)
  assert.equal(me.json.mode, 'oidc')
  assert.equal(me.json.subject, 'u-42')
  assert.equal(me.json.tenant, 'acme')
  assert.equal(me.json.role, 'operator')
  const replay = await exchange(orch, { code, code_verifier: VERIFIER })
  assert.equal(replay.json.error, 'token_exchange_failed', 'a code is redeemed once')
})

test('discovery_failed, token_exchange_failed, id_token_missing', async () => {
  idp.discoveryStatus = 503
  assert.deepEqual((await exchange(orch, { code: 'x', code_verifier: VERIFIER })).json.error, 'discovery_failed')
  idp.discoveryStatus = 200
  const wrongVerifier = idp.issueCode({ sub: 'u' }, 'w'.repeat(43))
  const failed = await exchange(orch, { code: wrongVerifier, code_verifier: VERIFIER })
  assert.equal(failed.status, 502)
  assert.equal(failed.json.error, 'token_exchange_failed')
  // An IdP that echoes the secret in its error: nothing of its body is passed on.
  idp.tokenReply = () => ({ status: 401, body: { error: 'invalid_client', error_description: `bad secret ${SECRET}` } })
  assert.equal((await exchange(orch, { code: 'x', code_verifier: VERIFIER })).json.error, 'token_exchange_failed')
  idp.tokenReply = () => ({ status: 200, body: { access_token: 'a', token_type: 'Bearer' } })
  const missing = await exchange(orch, { code: 'x', code_verifier: VERIFIER })
  assert.deepEqual(missing, { status: 502, json: { error: 'id_token_missing' } })
  idp.tokenReply = null
})

test('id_token_invalid with its reason: signature, issuer, audience, alg none', async () => {
  const reasons: Record<string, string> = {}
  reasons.invalid_signature = idp.issueCode({ sub: 'u' }, VERIFIER, { key: 'rogue' })
  reasons.issuer_mismatch = idp.issueCode({ sub: 'u' }, VERIFIER, { issuer: 'https://evil.example/' })
  reasons.audience_mismatch = idp.issueCode({ sub: 'u' }, VERIFIER, { audience: 'another-client' })
  for (const [reason, code] of Object.entries(reasons)) {
    const answered = await exchange(orch, { code, code_verifier: VERIFIER })
    assert.deepEqual(answered, { status: 401, json: { error: 'id_token_invalid', reason } }, reason)
  }
  const header = base64url.encode(JSON.stringify({ alg: 'none' }))
  const payload = base64url.encode(JSON.stringify({ sub: 'u', iss: idp.issuer, aud: dashboard.client_id, exp: 9999999999 }))
  idp.tokenReply = () => ({ status: 200, body: { id_token: `${header}.${payload}.` } })
  const none = await exchange(orch, { code: 'x', code_verifier: VERIFIER })
  idp.tokenReply = null
  assert.deepEqual(none, { status: 401, json: { error: 'id_token_invalid', reason: 'alg_none_rejected' } })
})

test('the client secret is in no answer, and GET /api/config redacts it', async () => {
  const withSecret = await startOrchestrator({
    config: { dashboard_oidc: { ...dashboard, client_secret_env: undefined, client_secret: SECRET } }
  })
  const code = idp.issueCode({ sub: 'u-s' }, VERIFIER)
  const ok = await exchange(withSecret, { code, code_verifier: VERIFIER })
  assert.equal(ok.status, 200)
  const config = await withSecret.call('GET', '/api/config')
  assert.equal(config.status, 200)
  bodies.push(config.body)
  assert.equal(config.json.dashboard_oidc.client_secret, '[redacted]')
  for (const body of bodies) assert.ok(!body.includes(SECRET), `secret leaked in ${body}`)
  assert.ok(bodies.length > 15)
})
