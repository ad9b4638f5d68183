import assert from 'node:assert/strict'
import { test } from 'node:test'
import Fastify from 'fastify'
import { accessTableOf, ACCESS, registerAccessGate, type RouteAccess } from '../../../../src/services/orchestrator/gates/route-access.js'
import { tokenPrincipal } from '../../../../src/services/orchestrator/principal.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

/**
 * Every route that changes something, with the access it must declare. A new mutating route is
 * not in this table and fails the walk below until someone decides (here, in review) who may call it.
 */
const MUTATING: Record<string, RouteAccess> = {
  'POST /api/set-directives': ACCESS.control,
  'POST /api/directives': ACCESS.control,
  'POST /api/plan': ACCESS.control,
  'POST /api/start': ACCESS.control,
  'POST /api/kill/all': ACCESS.control,
  'POST /api/kill/:id': ACCESS.control,
  'POST /api/cleanup': ACCESS.control,
  'POST /api/config': ACCESS.control,
  // Records a request for a human's decision; decides nothing.
  'POST /api/approvals/requests': ACCESS.bearer,
  // approval.api_decide is checked by the approvals service (the same rule RPC meets).
  'POST /api/approvals/:id/decision': ACCESS.bearer,
  // Starts a run only while control mutations are on; otherwise the submissions service parks it for approval.
  'POST /api/process/submit': ACCESS.bearer,
  // Each method applies its route's policy in the service it calls (control switch, api_decide).
  'POST /api/rpc': ACCESS.bearer,
  // Run flows: control mutations behind the terminal.run_flow_v2 flag (off: 404 before the control gate).
  'POST /api/run-flow/propose': { ...ACCESS.control, feature: 'run_flow_v2' },
  'POST /api/run-flow/:flowId/decision': { ...ACCESS.control, feature: 'run_flow_v2' },
  'POST /api/run-flow/:flowId/start': { ...ACCESS.control, feature: 'run_flow_v2' },
  'POST /api/run-flow/:flowId/cancel': { ...ACCESS.control, feature: 'run_flow_v2' },
  // Moves the target branch of the project: a control mutation.
  'POST /api/merge': ACCESS.control,
  // Establishes identity: its own gate is dashboard_oidc and a complete PKCE request.
  'POST /api/auth/oidc/exchange': ACCESS.public,
  // Enterprise administration: the admin permission (RBAC), audited.
  'POST /api/enterprise/tenants': ACCESS.admin,
  'PUT /api/enterprise/tenants/:id': ACCESS.admin,
  'DELETE /api/enterprise/tenants/:id': ACCESS.admin,
  'POST /api/enterprise/rbac': ACCESS.admin,
  'PUT /api/enterprise/rbac/:role': ACCESS.admin,
  'DELETE /api/enterprise/rbac/:role': ACCESS.admin,
  'POST /api/enterprise/rate': ACCESS.admin,
  'PUT /api/enterprise/rate/:id': ACCESS.admin,
  'DELETE /api/enterprise/rate/:id': ACCESS.admin,
  'POST /api/autonomous/approve/:id': ACCESS.control,
  'POST /api/autonomous/reject/:id': ACCESS.control,
  // Appends input to the backlog; what runs is decided by autonomous.policy and the process policy.
  'POST /api/reactive/webhook': ACCESS.bearer,
  // Platforms send no bearer: each connector checks its own signature over the raw body.
  'POST /api/webhooks/:channel': ACCESS.public,
  'POST /api/nervous/accept/:id': ACCESS.control,
  'POST /api/nervous/reject/:id': ACCESS.control,
  'POST /api/nervous/recommendations/dismiss/:id': ACCESS.control,
  // The terminal's own gate: the terminal token only, never the API token (docs/orchestrator.md#terminal).
  'POST /api/terminal/sessions': ACCESS.terminal,
  'DELETE /api/terminal/sessions/:id': ACCESS.terminal,
  // The chat reads live state and answers; it never acts on the project.
  'POST /api/chat': ACCESS.bearer
}

/** GET routes anyone may call (the dashboard's page holds the token for loopback callers only). */
const PUBLIC_READS = new Set(['/health', '/api/health', '/', '/index.html', '/assets/:file'])
/** GET streams that take `?token=` (EventSource cannot send headers). */
const QUERY_TOKEN_STREAMS = new Set(['/api/events', '/api/workers/:taskId/logs/stream', '/api/run-flow/:flowId/events', '/api/chat/stream'])
const DOCS = /^\/(docs|openapi)/

test('every route of the orchestrator declares its access; every mutating one as the table says', async () => {
  const orch = await startOrchestrator()
  const table = accessTableOf(orch.app)
  assert.ok(table.length > 40, `${table.length} routes recorded`)
  const seen = new Set<string>()
  for (const { method, url, access } of table) {
    const key = `${method} ${url}`
    seen.add(key)
    if (DOCS.test(url)) {
      assert.equal(access.caller, 'public', key)
      continue
    }
    if (method === 'GET' || method === 'HEAD') {
      assert.equal(access.control ?? false, false, `${key} is a read: no control mutation is a GET here`)
      assert.equal(access.caller === 'public', PUBLIC_READS.has(url), `${key}: public reads are ${[...PUBLIC_READS].join(', ')} only`)
      assert.equal(access.queryToken ?? false, QUERY_TOKEN_STREAMS.has(url), `${key}: query tokens only on the event and log streams`)
      continue
    }
    const expected = MUTATING[key]
    assert.ok(expected, `${key} changes state and is not in the route-walk table: declare its access and add it here`)
    assert.deepEqual(access, expected, key)
  }
  for (const key of Object.keys(MUTATING)) assert.ok(seen.has(key), `${key} is in the table but the app does not serve it`)
})

test('a route registered without an access declaration stops the app from starting (fail closed)', async () => {
  const app = Fastify()
  registerAccessGate(app, {
    auth: { token: 'x'.repeat(32), disabled: false, defaultDeny: false },
    principal: tokenPrincipal('tok:test'),
    assertControl: () => {},
    publicPrefixes: ['/docs']
  })
  app.get('/docs/page', async () => 'docs')
  app.get('/api/declared', { config: { access: ACCESS.bearer } }, async () => 'ok')
  assert.throws(() => app.post('/api/forgotten', async () => 'ok'), /POST \/api\/forgotten declares no access/)
  await app.close()
})

test('the control switch refuses every declared control mutation before its body is read, and allows it when on', async () => {
  const off = await startOrchestrator()
  for (const key of Object.keys(MUTATING).filter((k) => MUTATING[k] === ACCESS.control)) {
    const url = key.slice('POST '.length).replace(':id', 't-1')
    // The body is malformed JSON: a 400 would mean the gate ran after parsing it.
    const refused = await off.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${off.token}`, 'content-type': 'application/json' },
      payload: '{'
    })
    assert.equal(refused.statusCode, 403, `${key}: ${refused.body}`)
    assert.match(refused.json().error as string, /api\.control_mutations/)
  }
  const on = await startOrchestrator({ env: { QUARTET_CONTROL_MUTATIONS: '1' } })
  const answered = await on.call('POST', '/api/kill/all')
  assert.equal(answered.status, 200, answered.body)
})
