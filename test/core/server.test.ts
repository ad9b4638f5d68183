import assert from 'node:assert/strict'
import net from 'node:net'
import { test } from 'node:test'
import pino from 'pino'
import { Type } from 'typebox'
import { createServer } from '../../src/core/http/server.js'
import { corsPolicy } from '../../src/core/http/plugins/cors.js'
import type { ErrorFormatter } from '../../src/core/http/plugins/error-shape.js'

const shape: ErrorFormatter = (error, request) => ({
  statusCode: error.statusCode,
  body: { problem: error.message, status: error.statusCode, id: request.id }
})

async function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString()
    })
    socket.on('end', () => resolve(answer))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
    socket.write(text)
  })
}

test("createServer: errors of the HTTP layer itself come out in the service's error shape", async (t) => {
  const app = createServer({ logger: pino({ level: 'silent' }), errorFormatter: shape })
  app.get('/ok', async () => ({ ok: true }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.after(() => app.close())
  const { port } = app.server.address() as net.AddressInfo

  const oversized = await rawExchange(port, `GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
  assert.match(oversized, /^HTTP\/1\.1 431 /)
  const body431 = JSON.parse(oversized.slice(oversized.indexOf('\r\n\r\n') + 4)) as { problem: string; status: number; id: string }
  assert.equal(body431.status, 431)
  assert.match(body431.problem, /headers are too large/)
  assert.ok(body431.id.length > 0)

  const garbage = await rawExchange(port, 'THIS IS NOT HTTP\r\n\r\n')
  assert.match(garbage, /^HTTP\/1\.1 400 /)
  assert.equal((JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4)) as { status: number }).status, 400)

  const unknown = await app.inject({ method: 'GET', url: '/nope' })
  assert.equal(unknown.statusCode, 404)
  assert.equal(unknown.json<{ status: number }>().status, 404)
})

test('createServer: a service may rewrite URLs and answer unknown routes itself', async () => {
  const app = createServer({
    logger: pino({ level: 'silent' }),
    fastify: { rewriteUrl: (req) => (req.url ?? '/').replace(/^\/api\/v1\//, '/api/') },
    notFound: (_request, reply) => reply.code(404).send({ error: 'Not found' })
  })
  app.get('/api/thing', async () => ({ ok: true }))
  assert.deepEqual((await app.inject({ url: '/api/v1/thing' })).json(), { ok: true })
  const missing = await app.inject({ url: '/api/v1/other' })
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { error: 'Not found' })
  await app.close()
})

test(
  'createServer: a known path with another method is 405 with Allow; ' + 'unknown paths (also under a CORS catch-all) stay 404',
  async (t) => {
    const app = createServer({ logger: pino({ level: 'silent' }), errorFormatter: shape })
    await corsPolicy(app, { origin: '*' })
    app.get('/items/:id', async () => ({ ok: true }))
    app.post('/items', async () => ({ ok: true }))
    app.delete('/items/:id', async () => null)
    t.after(() => app.close())

    const wrong = await app.inject({ method: 'PUT', url: '/items/7?apikey=secret-value' })
    assert.equal(wrong.statusCode, 405)
    assert.equal(wrong.headers.allow, 'DELETE, GET, HEAD')
    assert.equal(wrong.json().problem, 'PUT is not allowed on /items/7; allowed: DELETE, GET, HEAD')
    assert.equal((await app.inject({ method: 'GET', url: '/items' })).headers.allow, 'POST')
    for (const url of ['/nope', '/items/7/deeper', '//items/7', '/items%2F7']) {
      const missing = await app.inject({ method: 'PUT', url })
      assert.equal(missing.statusCode, 404, url)
      assert.equal(missing.headers.allow, undefined, url)
    }
    assert.equal((await app.inject({ method: 'GET', url: '/items/7' })).statusCode, 200)
  }
)

test("createServer: a CORS preflight no policy grants is 403 in the service's shape; a granted one passes", async (t) => {
  const app = createServer({ logger: pino({ level: 'silent' }), errorFormatter: shape })
  await corsPolicy(app, { origin: ['http://localhost:3000'] })
  app.get('/items', async () => ({ ok: true }))
  t.after(() => app.close())
  const preflight = (origin: string) =>
    app.inject({ method: 'OPTIONS', url: '/items', headers: { origin, 'access-control-request-method': 'GET' } })
  const refused = await preflight('http://evil.example')
  assert.equal(refused.statusCode, 403)
  assert.equal(refused.json().problem, 'Cross-origin requests from "http://evil.example" are not allowed.')
  assert.equal(refused.headers['access-control-allow-origin'], undefined)
  const granted = await preflight('http://localhost:3000')
  assert.equal(granted.statusCode, 204)
  assert.equal(granted.headers['access-control-allow-origin'], 'http://localhost:3000')
  assert.equal((await app.inject({ method: 'OPTIONS', url: '/items' })).statusCode, 405, 'a plain OPTIONS is not a preflight')
})

test("createServer: an over-long path parameter is 414 in the service's shape without quoting the parameter", async (t) => {
  const app = createServer({ logger: pino({ level: 'silent' }), errorFormatter: shape })
  app.get('/keys/:key', async () => ({ ok: true }))
  t.after(() => app.close())
  const secret = `mk_${'s'.repeat(600)}`
  const res = await app.inject({ url: `/keys/${secret}` })
  assert.equal(res.statusCode, 414)
  assert.equal(res.json().problem, 'A path segment is longer than 512 characters.')
  assert.ok(!res.body.includes('sssss'))
})

test('createServer: a value outside a union of literals is one validation problem naming the allowed values', async (t) => {
  const withDetails: ErrorFormatter = (error) => ({ statusCode: error.statusCode, body: { details: error.details } })
  const app = createServer({ logger: pino({ level: 'silent' }), errorFormatter: withDetails })
  app.post(
    '/pick',
    { schema: { body: Type.Object({ colour: Type.Union([Type.Literal('red'), Type.Literal('green')]), size: Type.Integer() }) } },
    async () => ({ ok: true })
  )
  t.after(() => app.close())
  const res = await app.inject({ method: 'POST', url: '/pick', payload: { colour: 'blue', size: 'x' } })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(
    res.json().details.map((d: { pointer: string; message: string }) => [d.pointer, d.message]),
    [
      ['/colour', 'colour must be one of: red, green'],
      ['/size', 'size must be integer']
    ]
  )
})
