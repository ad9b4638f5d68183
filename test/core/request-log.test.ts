import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import pino from 'pino'
import { buildServer } from '../../src/core/http/server.js'
import { redactUrl } from '../../src/core/http/redact-url.js'

test('request log: credentials in the query string never reach the log', async () => {
  const lines: string[] = []
  const sink = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(chunk.toString()); done() } })
  const app = await buildServer({ name: 'logtest', description: 'request log test', logger: pino({ level: 'info' }, sink) })
  app.get('/items', async () => ({ ok: true }))
  await app.ready()
  const response = await app.inject({ method: 'GET', url: '/items?page=2&apikey=mk_SuperSecret123&ApiKey=ck_Other456&token=eyJhbGciOi.x.y' })
  assert.equal(response.statusCode, 200)
  await app.close()
  const requestLine = lines.map((line) => JSON.parse(line) as { msg: string; url?: string }).find((entry) => entry.msg === 'request')
  assert.equal(requestLine?.url, '/items?page=2&apikey=[redacted]&ApiKey=[redacted]&token=[redacted]')
  assert.doesNotMatch(lines.join(''), /SuperSecret123|Other456|eyJhbGciOi/)
})

test('redactUrl: only credential parameters, encoded names too, everything else untouched', () => {
  assert.equal(redactUrl('/v2/orders/new'), '/v2/orders/new')
  assert.equal(redactUrl('/x?page=1&pageSize=10'), '/x?page=1&pageSize=10')
  assert.equal(redactUrl('/x?api%6Bey=abc&q=1'), '/x?api%6Bey=[redacted]&q=1')
  assert.equal(redactUrl('/x?access_token=abc&password=p&keyword=k'), '/x?access_token=[redacted]&password=[redacted]&keyword=k')
  assert.equal(redactUrl('/x?%E0%A4%A=1&apikey'), '/x?%E0%A4%A=1&apikey')
})
