import { test } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import { Type } from 'typebox'
import { createServer, type App } from '../../src/core/http/server.js'
import { inputSanity } from '../../src/core/http/plugins/input-sanity.js'
import { markStringSourced } from '../../src/core/http/validation.js'
import { NON_FINITE } from '../helpers/strict-input.js'

const Body = Type.Object({
  n: Type.Optional(Type.Integer()),
  s: Type.Optional(Type.String()),
  b: Type.Optional(Type.Boolean()),
  o: Type.Optional(Type.Object({ k: Type.Integer() }))
})

/** Routes echoing what validation let through; `mark` decides how the body is marked before validation. */
async function echoApp(options: { sanity?: boolean } = {}): Promise<App> {
  const app = createServer({ logger: pino({ level: 'silent' }) })
  if (options.sanity) inputSanity(app)
  app.post('/json', { schema: { body: Body } }, (request) => ({ body: request.body }))
  app.post(
    '/form',
    {
      schema: { body: Body },
      preValidation: (request, _reply, done) => {
        request.body = markStringSourced({ ...(request.body as object) })
        done()
      }
    },
    (request) => ({ body: request.body })
  )
  app.post(
    '/partly',
    {
      schema: { body: Body },
      preValidation: (request, _reply, done) => {
        request.body = markStringSourced({ ...(request.body as object) }, ['n'])
        done()
      }
    },
    (request) => ({ body: request.body })
  )
  app.post('/list', { schema: { body: Type.Array(Type.String()) } }, (request) => ({ body: request.body }))
  app.get(
    '/query',
    { schema: { querystring: Type.Object({ n: Type.Optional(Type.Integer()), x: Type.Optional(Type.Number()) }) } },
    (request) => ({ query: request.query })
  )
  app.get('/plain', () => ({ ok: true }))
  app.delete('/plain', () => ({ ok: true }))
  app.post('/plain', () => ({ ok: true }))
  await app.ready()
  return app
}

async function post(app: App, url: string, payload: string) {
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload })
  return { status: res.statusCode, json: res.json() }
}

test('JSON bodies are validated without coercion: wrong types and wrong top-level types are 400', async () => {
  const app = await echoApp()
  for (const payload of [
    '{"n": true}',
    '{"n": "5"}',
    '{"s": 5}',
    '{"s": true}',
    '{"b": "true"}',
    '{"b": 1}',
    'true',
    '"x"',
    '[]',
    '5',
    'null'
  ]) {
    const res = await post(app, '/json', payload)
    assert.equal(res.status, 400, payload)
    assert.equal(res.json.code, 'VALIDATION_FAILED', payload)
  }
  assert.deepEqual((await post(app, '/json', '{"n": 5, "s": "x", "b": false}')).json.body, { n: 5, s: 'x', b: false })
  for (const payload of ['true', '{"a": 1}', '"x"']) assert.equal((await post(app, '/list', payload)).status, 400, payload)
  assert.deepEqual((await post(app, '/list', '["a"]')).json.body, ['a'])
  await app.close()
})

test('query strings and marked form bodies are coerced; a partly marked body only in its marked properties', async () => {
  const app = await echoApp()
  const query = await app.inject({ method: 'GET', url: '/query?n=5&x=1.5' })
  assert.deepEqual(query.json().query, { n: 5, x: 1.5 })
  assert.equal((await app.inject({ method: 'GET', url: '/query?n=five' })).statusCode, 400)
  assert.deepEqual((await post(app, '/form', '{"n": "5", "s": "x", "b": "true"}')).json.body, { n: 5, s: 'x', b: true })
  assert.deepEqual((await post(app, '/partly', '{"n": "5", "s": "x"}')).json.body, { n: 5, s: 'x' })
  const strictRest = await post(app, '/partly', '{"n": "5", "b": "true"}')
  assert.equal(strictRest.status, 400)
  assert.equal(strictRest.json.details[0].pointer, '/b')
  assert.equal((await post(app, '/partly', '{"n": "x"}')).status, 400)
  // Coercing the marked property must not reach a nested JSON value through a shared reference.
  const nested = await post(app, '/partly', '{"n": "5", "o": {"k": "7"}}')
  assert.equal(nested.status, 400)
  assert.equal(nested.json.details[0].pointer, '/o/k')
  await app.close()
})

test('an empty JSON body is no body on routes without a body schema; a required body still fails validation', async () => {
  const app = await echoApp()
  for (const method of ['DELETE', 'GET', 'POST'] as const) {
    for (const headers of [
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json', 'content-length': '0' },
      { 'content-type': 'application/json; charset=utf-8' }
    ]) {
      const res = await app.inject({ method, url: '/plain', headers, payload: '' })
      assert.equal(res.statusCode, 200, `${method} ${JSON.stringify(headers)}: ${res.body}`)
    }
    const blank = await app.inject({ method, url: '/plain', headers: { 'content-type': 'application/json' }, payload: '  \r\n' })
    assert.equal(blank.statusCode, 200, `${method} whitespace only`)
  }
  const required = await post(app, '/json', '')
  assert.equal(required.status, 400)
  assert.equal(required.json.code, 'VALIDATION_FAILED')
  assert.equal((await post(app, '/plain', '{')).json.code, 'MALFORMED_BODY')
  await app.close()
})

test('non-finite query numbers are 400 by validation itself, bounded or not, with or without input sanity', async () => {
  const bounded = createServer({ logger: pino({ level: 'silent' }) })
  // Ajv coerces "Infinity" to Infinity and then skips minimum/maximum for it: the bounds alone let it through.
  bounded.get(
    '/page',
    { schema: { querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }) } },
    (r) => ({
      query: r.query
    })
  )
  bounded.get('/item/:n', { schema: { params: Type.Object({ n: Type.Integer() }) } }, (r) => ({ params: r.params }))
  await bounded.ready()
  for (const value of NON_FINITE) {
    for (const url of [
      `/page?limit=${encodeURIComponent(value)}`,
      `/page?limit=5&limit=${encodeURIComponent(value)}`,
      `/item/${encodeURIComponent(value)}`
    ]) {
      const res = await bounded.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 400, url)
      assert.equal(res.json().code, 'VALIDATION_FAILED', url)
      if (value !== 'NaN' && !url.includes('&')) assert.match(res.json().message, /must be a finite number/, url)
    }
  }
  assert.deepEqual((await bounded.inject({ method: 'GET', url: '/page?limit=100' })).json(), { query: { limit: 100 } })
  await bounded.close()
  for (const sanity of [false, true]) {
    const app = await echoApp({ sanity })
    for (const value of NON_FINITE) {
      const res = await app.inject({ method: 'GET', url: `/query?x=${encodeURIComponent(value)}` })
      assert.equal(res.statusCode, 400, value)
      assert.equal(res.json().code, 'VALIDATION_FAILED', value)
    }
    await app.close()
  }
  const app = await echoApp({ sanity: true })
  assert.equal((await post(app, '/json', '{"n": 1e309}')).status, 400)
  await app.close()
})
