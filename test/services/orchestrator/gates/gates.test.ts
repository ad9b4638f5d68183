import assert from 'node:assert/strict'
import http from 'node:http'
import { after, before, describe, test } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { registerGates, type GatesOptions } from '../../../../src/services/orchestrator/gates/register-gates.js'
import { rewriteV1Request } from '../../../../src/services/orchestrator/gates/paths.js'
import { registerErrorShape, registerNotFound } from '../../../../src/services/orchestrator/gates/errors.js'
import { ACCESS, type RouteAccess } from '../../../../src/services/orchestrator/gates/route-access.js'
import { orchestratorError } from '../../../../src/services/orchestrator/errors.js'
import { tokenPrincipal } from '../../../../src/services/orchestrator/principal.js'
import { trackRoutes } from '../../../../src/core/http/route-table.js'

const TOKEN = 'test-token-0123456789abcdefghijklmnop'
const GOVERNED_POSTS = [
  '/api/start',
  '/api/plan',
  '/api/cleanup',
  '/api/set-directives',
  '/api/directives',
  '/api/config',
  '/api/chat',
  '/api/git/commit',
  '/api/kill/all',
  '/api/kill/t-1',
  '/api/nervous/accept/r1',
  '/api/nervous/reject/r1',
  '/api/nervous/recommendations/dismiss/r1',
  '/api/autonomous/approve/a1',
  '/api/autonomous/reject/a1'
]

interface Served {
  app: FastifyInstance
  base: string
  setControl(on: boolean): void
}

async function serve(overrides: Partial<GatesOptions> = {}): Promise<Served> {
  let control = false
  const app = Fastify({ rewriteUrl: rewriteV1Request, bodyLimit: 1024 })
  registerErrorShape(app)
  const routes = trackRoutes(app)
  registerGates(app, {
    auth: { token: TOKEN, disabled: false, defaultDeny: false },
    principal: tokenPrincipal('tok:test'),
    assertControl: () => {
      if (!control) throw orchestratorError('ORCH_CONTROL_MUTATIONS_OFF')
    },
    publicPrefixes: [],
    rateLimit: { max: 100, windowMs: 60_000 },
    ...overrides
  })
  const ok = async () => ({ ok: true })
  const as = (access: RouteAccess) => ({ config: { access } })
  app.get('/health', as(ACCESS.public), ok)
  app.get('/api/health', as(ACCESS.public), ok)
  app.get('/api/status', as(ACCESS.bearer), ok)
  app.get('/api/events', as(ACCESS.stream), ok)
  // A GET that mutates (it sends a chat message): a control mutation that takes the query token.
  app.get('/api/chat/stream', as({ caller: 'bearer', control: true, queryToken: true }), ok)
  app.get('/api/workers/:taskId/logs/stream', as(ACCESS.stream), ok)
  app.get('/api/run-flow/:flowId', as(ACCESS.stream), ok)
  app.post('/api/run-flow/:flowId/start', as(ACCESS.bearer), ok)
  app.post('/api/rpc', as(ACCESS.bearer), ok)
  app.post(
    '/api/echo',
    {
      ...as(ACCESS.bearer),
      schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 10 } } } }
    },
    async (request) => request.body
  )
  for (const path of GOVERNED_POSTS.filter((p) => !p.startsWith('/api/kill/') && !/\/(?:accept|reject|dismiss|approve)\//.test(p))) {
    app.post(path, as(ACCESS.control), ok)
  }
  for (const path of [
    '/api/kill/:id',
    '/api/nervous/accept/:id',
    '/api/nervous/reject/:id',
    '/api/nervous/recommendations/dismiss/:id',
    '/api/autonomous/approve/:id',
    '/api/autonomous/reject/:id'
  ])
    app.post(path, as(ACCESS.control), ok)
  registerNotFound(app, routes)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  assert.ok(address && typeof address === 'object')
  return {
    app,
    base: `http://127.0.0.1:${address.port}`,
    setControl: (on) => {
      control = on
    }
  }
}

const auth = { authorization: `Bearer ${TOKEN}` }

async function call(base: string, path: string, init: RequestInit = {}) {
  const response = await fetch(base + path, init)
  const text = await response.text()
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined
  return { status: response.status, headers: response.headers, body }
}

describe('gates over HTTP', () => {
  let served: Served
  before(async () => {
    served = await serve()
  })
  after(() => served.app.close())

  test('v1 alias: /api/v1/... is /api/...; health is exempt under both spellings', async () => {
    assert.equal((await call(served.base, '/api/v1/health')).status, 200)
    assert.equal((await call(served.base, '/api/health')).status, 200)
    assert.equal((await call(served.base, '/health')).status, 200)
    assert.equal((await call(served.base, '/api/v1/status')).status, 401)
    assert.deepEqual((await call(served.base, '/api/v1/status', { headers: auth })).body, { ok: true })
  })

  test('bearer: 401 without or with a malformed header, 403 for a wrong token, 200 for the right one', async () => {
    const missing = await call(served.base, '/api/status')
    assert.equal(missing.status, 401)
    assert.deepEqual(missing.body, { error: 'authentication required' })
    assert.equal((await call(served.base, '/api/status', { headers: { authorization: `Basic ${TOKEN}` } })).status, 401)
    assert.equal((await call(served.base, '/api/status', { headers: { authorization: TOKEN } })).status, 401)
    const wrong = await call(served.base, '/api/status', { headers: { authorization: 'Bearer not-the-token' } })
    assert.equal(wrong.status, 403)
    assert.deepEqual(wrong.body, { error: 'forbidden' })
    assert.equal((await call(served.base, '/api/status', { headers: auth })).status, 200)
    // Access follows the route the router matched, whatever the spelling: an encoded health is health.
    assert.equal((await call(served.base, '/api/%68ealth')).status, 200)
    // Unknown /api paths are behind the gate too (no route discovery without a token).
    assert.equal((await call(served.base, '/api/nothing-here')).status, 401)
    // The router decodes the path, so a percent-encoded /api/ prefix is gated like the plain one.
    for (const path of ['/%61pi/status', '/%61%70%69/status', '/ap%69/events']) {
      assert.deepEqual(await call(served.base, path).then((r) => [r.status, r.body]), [401, { error: 'authentication required' }], path)
    }
    assert.deepEqual((await call(served.base, '/%61pi/status', { headers: auth })).body, { ok: true })
    // …and its access is the route's: the event stream's query token, checked like any other.
    assert.deepEqual(await call(served.base, '/ap%69/events?token=wrong').then((r) => [r.status, r.body]), [403, { error: 'forbidden' }])
  })

  test('absolute-form request targets (proxy style) meet the same gates as their path', async () => {
    // fetch cannot send `GET http://host/path`; node:http sends the path as given.
    const absolute = (target: string, headers: Record<string, string> = {}, method = 'GET') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { port } = new URL(served.base)
        const request = http.request({ host: '127.0.0.1', port, path: target, headers, method }, (response) => {
          let body = ''
          response
            .setEncoding('utf8')
            .on('data', (chunk: string) => {
              body += chunk
            })
            .on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        })
        request.on('error', reject).end()
      })
    for (const target of ['http://evil.example/api/status', 'HTTP://evil.example/%61pi/status', 'http://evil.example/api/v1/status']) {
      assert.deepEqual(await absolute(target), { status: 401, body: '{"error":"authentication required"}' }, target)
    }
    assert.deepEqual(await absolute('http://evil.example/api/status', auth), { status: 200, body: '{"ok":true}' })
    assert.equal((await absolute('http://evil.example/health')).status, 200)
    assert.equal((await absolute('http://evil.example/api/start', auth, 'POST')).status, 403)
  })

  test('?token= only for GET/HEAD on the stream routes', async () => {
    const q = `?token=${TOKEN}`
    assert.equal((await call(served.base, `/api/events${q}`)).status, 200)
    assert.equal((await call(served.base, `/api/v1/events${q}`)).status, 200)
    assert.equal((await call(served.base, `/api/workers/t1/logs/stream${q}`)).status, 200)
    assert.equal((await call(served.base, `/api/run-flow/f1${q}`)).status, 200)
    assert.equal((await call(served.base, `/api/events${q}`, { method: 'HEAD' })).status, 200)
    assert.equal((await call(served.base, '/api/events?token=wrong')).status, 403)
    assert.equal((await call(served.base, '/api/events?token=')).status, 401)
    assert.equal((await call(served.base, `/api/status${q}`)).status, 401)
    assert.equal((await call(served.base, `/api/run-flow/f1/start${q}`, { method: 'POST' })).status, 401)
    assert.equal((await call(served.base, `/api/run-flow/f1/start`, { method: 'POST', headers: auth })).status, 200)
  })

  test('CORS: loopback http origins and null are reflected with Vary; others get no grant', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3100', 'http://[::1]:8080', 'null']) {
      const response = await call(served.base, '/api/status', { headers: { ...auth, origin } })
      assert.equal(response.status, 200)
      assert.equal(response.headers.get('access-control-allow-origin'), origin)
      assert.match(response.headers.get('vary') ?? '', /Origin/)
    }
    for (const origin of [
      'https://evil.example',
      'http://localhost',
      'https://localhost:5173',
      'http://localhost.evil.example:80',
      'http://127.0.0.1:80/x'
    ]) {
      const response = await call(served.base, '/api/status', { headers: { ...auth, origin } })
      assert.equal(response.status, 200, origin)
      assert.equal(response.headers.get('access-control-allow-origin'), null, origin)
      assert.match(response.headers.get('vary') ?? '', /Origin/)
    }
  })

  test('CORS preflight: allowed origin 204 with methods and headers (no token needed); foreign origin 403 without ACAO', async () => {
    const allowed = await call(served.base, '/api/start', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }
    })
    assert.equal(allowed.status, 204)
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://localhost:5173')
    assert.match(allowed.headers.get('access-control-allow-methods') ?? '', /POST/)
    assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /Authorization/)
    const foreign = await call(served.base, '/api/status', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' }
    })
    assert.equal(foreign.status, 403)
    assert.deepEqual(foreign.body, { error: 'CORS origin not allowed' })
    assert.equal(foreign.headers.get('access-control-allow-origin'), null)
  })

  test('control-mutation gate: every governed route is 403 while off and passes while on', async () => {
    served.setControl(false)
    for (const path of GOVERNED_POSTS) {
      const refused = await call(served.base, path, { method: 'POST', headers: auth })
      assert.equal(refused.status, 403, path)
      const message = String(refused.body?.error)
      assert.match(message, /quartet plan`, `quartet run`/)
      assert.match(message, /api\.control_mutations/)
      assert.match(message, /QUARTET_CONTROL_MUTATIONS=1/)
    }
    assert.equal((await call(served.base, '/api/chat/stream', { headers: auth })).status, 403)
    assert.equal((await call(served.base, '/api/chat/stream?message=hi', { headers: auth })).status, 403)
    assert.equal((await call(served.base, '/api/chat/stream', { method: 'HEAD', headers: auth })).status, 403)
    // Other spellings of a governed path are governed too.
    assert.equal((await call(served.base, '/api/%73tart', { method: 'POST', headers: auth })).status, 403)
    assert.equal((await call(served.base, '/api/v1/start', { method: 'POST', headers: auth })).status, 403)
    // Never governed.
    assert.equal((await call(served.base, '/api/run-flow/f1/start', { method: 'POST', headers: auth })).status, 200)
    assert.equal((await call(served.base, '/api/rpc', { method: 'POST', headers: auth })).status, 200)
    assert.equal((await call(served.base, '/api/status', { headers: auth })).status, 200)
    // Unauthenticated callers hear about the token first, not about the switch.
    assert.equal((await call(served.base, '/api/start', { method: 'POST' })).status, 401)

    served.setControl(true)
    for (const path of GOVERNED_POSTS) {
      assert.equal((await call(served.base, path, { method: 'POST', headers: auth })).status, 200, path)
    }
    assert.equal((await call(served.base, '/api/chat/stream', { headers: auth })).status, 200)
    served.setControl(false)
  })

  test('404 and 405 with Allow; 400 malformed JSON; 413 oversized body; 400 schema failure', async () => {
    const unknown = await call(served.base, '/api/unknown-route', { headers: auth })
    assert.equal(unknown.status, 404)
    assert.deepEqual(unknown.body, { error: 'Not found' })
    const wrongMethod = await call(served.base, '/api/status', { method: 'DELETE', headers: auth })
    assert.equal(wrongMethod.status, 405)
    assert.deepEqual(wrongMethod.body, { error: 'Method not allowed' })
    assert.match(wrongMethod.headers.get('allow') ?? '', /GET/)
    // Spellings the router does not match are unknown paths, not a 405 naming the method used.
    for (const path of ['//api/status', '/api%2Fstatus']) {
      for (const method of ['GET', 'DELETE']) {
        const unmatched = await call(served.base, path, { method, headers: auth })
        assert.deepEqual(
          [unmatched.status, unmatched.body, unmatched.headers.get('allow')],
          [404, { error: 'Not found' }, null],
          `${method} ${path}`
        )
      }
    }
    const withParam = await call(served.base, '/api/kill/abc', { method: 'GET', headers: auth })
    assert.equal(withParam.status, 405)
    assert.equal(withParam.headers.get('allow'), 'POST')
    const json = { ...auth, 'content-type': 'application/json' }
    const malformed = await call(served.base, '/api/echo', { method: 'POST', headers: json, body: '{"name":' })
    assert.equal(malformed.status, 400)
    assert.deepEqual(malformed.body, { error: 'Invalid JSON body' })
    const large = await call(served.base, '/api/echo', { method: 'POST', headers: json, body: JSON.stringify({ name: 'x'.repeat(2000) }) })
    assert.equal(large.status, 413)
    assert.deepEqual(large.body, { error: 'Payload too large' })
    const invalid = await call(served.base, '/api/echo', { method: 'POST', headers: json, body: JSON.stringify({ other: 1 }) })
    assert.equal(invalid.status, 400)
    assert.equal(typeof invalid.body?.error, 'string')
    assert.match(String(invalid.body?.error), /name/)
    assert.deepEqual(Object.keys(invalid.body ?? {}), ['error'])
    assert.deepEqual((await call(served.base, '/api/echo', { method: 'POST', headers: json, body: '{"name":"ok"}' })).body, { name: 'ok' })
  })

  test('loopback callers are exempt from the rate limit', async () => {
    const small = await serve({ rateLimit: { max: 2, windowMs: 60_000 } })
    try {
      const statuses = await Promise.all(
        Array.from({ length: 6 }, () => call(small.base, '/api/status', { headers: auth }).then((r) => r.status))
      )
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200])
    } finally {
      await small.app.close()
    }
  })
})

describe('gates for a non-loopback peer (socket address given to inject)', () => {
  let served: Served
  before(async () => {
    served = await serve({ rateLimit: { max: 3, windowMs: 60_000 } })
  })
  after(() => served.app.close())

  test('429 with Retry-After past the limit, per client, before the bearer check; /health is not limited', async () => {
    const from = (remoteAddress: string, url = '/api/status', headers: Record<string, string> = auth) =>
      served.app.inject({ url, remoteAddress, headers })
    for (let i = 0; i < 3; i++) assert.equal((await from('203.0.113.5')).statusCode, 200)
    const limited = await from('203.0.113.5')
    assert.equal(limited.statusCode, 429)
    assert.deepEqual(limited.json(), { error: 'Too Many Requests' })
    const retryAfter = Number(limited.headers['retry-after'])
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter))
    // Limited before authentication: even a request without a token gets 429.
    assert.equal((await from('203.0.113.5', '/api/status', {})).statusCode, 429)
    assert.equal((await from('203.0.113.5', '/health', {})).statusCode, 200)
    // An encoded /api/ prefix reaches the same routes, so it is limited too.
    assert.equal((await from('203.0.113.5', '/%61pi/status')).statusCode, 429)
    assert.equal((await from('198.51.100.7')).statusCode, 200)
    // The loopback exemption is the socket address, and ::ffff:127.0.0.1 is loopback too.
    for (let i = 0; i < 5; i++) assert.equal((await from('::ffff:127.0.0.1')).statusCode, 200)
  })
})

describe('auth modes', () => {
  test('remote bind without a token: default-deny names the settings; disabled auth lets everything through', async () => {
    const deny = await serve({ auth: { token: null, disabled: false, defaultDeny: true } })
    const open = await serve({ auth: { token: null, disabled: true, defaultDeny: false } })
    try {
      const denied = await call(deny.base, '/api/status', { headers: auth })
      assert.equal(denied.status, 401)
      assert.match(String(denied.body?.error), /QUARTET_API_TOKEN/)
      assert.match(String(denied.body?.error), /QUARTET_API_AUTH_DISABLED=1/)
      assert.equal((await call(deny.base, '/api/health')).status, 200)
      assert.equal((await call(open.base, '/api/status')).status, 200)
      // Disabling auth does not open the control gate.
      assert.equal((await call(open.base, '/api/start', { method: 'POST' })).status, 403)
    } finally {
      await Promise.all([deny.app.close(), open.app.close()])
    }
  })
})
