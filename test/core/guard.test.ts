import assert from 'node:assert/strict'
import { test } from 'node:test'
import pino from 'pino'
import { createGuard } from '../../src/core/http/guard.js'
import { createServer } from '../../src/core/http/server.js'

test('guard: routes with it read their typed caller; a route without it cannot', async () => {
  const guard = createGuard('demo', async (request) => {
    if (request.headers['x-user'] !== 'ann') throw Object.assign(new Error('nope'), { statusCode: 401 })
    return { name: 'ann', admin: false }
  })
  const app = createServer({ logger: pino({ level: 'silent' }) })
  app.get('/me', { onRequest: guard.check }, async (request) => guard.of(request))
  app.get('/open', async (request) => guard.of(request))
  assert.deepEqual((await app.inject({ url: '/me', headers: { 'x-user': 'ann' } })).json(), { name: 'ann', admin: false })
  assert.equal((await app.inject({ url: '/me' })).statusCode, 401)
  assert.equal((await app.inject({ url: '/open' })).statusCode, 500)
  await app.close()
})
