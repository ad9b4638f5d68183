import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { SignJWT } from 'jose'
import { randomToken } from '../../src/core/auth/crypto.js'
import { createServer } from '../../src/core/http/server.js'
import { REQUEST_LOG_BATCH, requestLog } from '../../src/core/http/plugins/request-log.js'
import { redactServerSecrets, redactUrl, registerServerSecret } from '../../src/core/http/redact-url.js'

test('request log: credentials in the query string never reach the log', async () => {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString())
      done()
    }
  })
  const app = createServer({ logger: pino({ level: 'info' }, sink) })
  requestLog(app)
  app.get('/items', async () => ({ ok: true }))
  await app.ready()
  const response = await app.inject({
    method: 'GET',
    url: '/items?page=2&apikey=mk_SuperSecret123&ApiKey=ck_Other456&token=eyJhbGciOi.x.y'
  })
  assert.equal(response.statusCode, 200)
  await app.close()
  const requestLine = lines
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; url?: string })
    .find((entry) => entry.msg === 'request')
  assert.equal(requestLine?.url, '/items?page=2&apikey=[redacted]&ApiKey=[redacted]&token=[redacted]')
  assert.doesNotMatch(lines.join(''), /SuperSecret123|Other456|eyJhbGciOi/)
})

test('redactUrl: values by parameter name, kept only for the short allow-list, encoded names too', () => {
  assert.equal(redactUrl('/v2/orders/new'), '/v2/orders/new')
  assert.equal(redactUrl('/x?page=1&pageSize=10&LIMIT=5&offset=0&v=1'), '/x?page=1&pageSize=10&LIMIT=5&offset=0&v=1')
  assert.equal(redactUrl('/x?api%6Bey=abc&q=1'), '/x?api%6Bey=[redacted]&q=[redacted]')
  assert.equal(redactUrl('/x?access_token=abc&password=p&keyword=k'), '/x?access_token=[redacted]&password=[redacted]&keyword=[redacted]')
  assert.equal(redactUrl('/x?%E0%A4%A=1&apikey'), '/x?%E0%A4%A=[redacted]&[redacted]')
  assert.equal(redactUrl('/x?empty=&page'), '/x?empty=&page')
  assert.equal(redactUrl('/x;jsessionid=s3cr3t;page=2?status=open'), '/x;jsessionid=[redacted];page=2?status=open')
})

test('redactUrl: secrets with no recognisable shape, under any name outside the allow-list', () => {
  const secret = 'hunter2-correct-horse'
  for (const name of ['pwd', 'pass', 'passwd', 'credentials', 'session', 'signature', 'sig', 'code', 'k', 'x', 'q%5B%5D']) {
    const url = `/login?${name}=${secret}&limit=3`
    const redacted = redactUrl(url)
    assert.ok(!redacted.includes(secret), `${name}: ${redacted}`)
    assert.ok(redacted.endsWith('&limit=3'), redacted)
  }
})

const apiKey = `mk_${randomToken(24)}`
const channelKey = `ck_${randomToken(24)}`
const jwt = await new SignJWT({ email: 'ann@example.com' })
  .setProtectedHeader({ alg: 'HS256' })
  .setIssuedAt()
  .setExpirationTime('1h')
  .sign(new TextEncoder().encode('a-test-secret-of-at-least-32-characters!'))
const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('')

/** Every spelling the security review got past the name-based redaction. */
const spellings: [string, string, string][] = [
  ['apikey[]', `/v2/orders?apikey[]=${apiKey}&page=2`, '/v2/orders?apikey[]=[redacted]&page=2'],
  ['apikey%5B%5D', `/v2/orders?apikey%5B%5D=${apiKey}&page=2`, '/v2/orders?apikey%5B%5D=[redacted]&page=2'],
  [';apikey', `/v2/orders?page=2;apikey=${apiKey}`, '/v2/orders?page=2;apikey=[redacted]'],
  [';apikey in the path', `/v2/orders;apikey=${apiKey}`, '/v2/orders;apikey=[redacted]'],
  ['x-ce-key', `/v2/orders?x-ce-key=${channelKey}`, '/v2/orders?x-ce-key=[redacted]'],
  ['key under another name', `/v2/orders?merchant=${apiKey}&page=1`, '/v2/orders?merchant=[redacted]&page=1'],
  ['key under an allowed name', `/v2/orders?status=${apiKey}&page=1`, '/v2/orders?status=[redacted]&page=1'],
  ['key as a path segment', `/v2/orders/${apiKey}/lines`, '/v2/orders/[redacted]/lines'],
  ['percent-encoded key as a path segment', `/v2/orders/${encodeAll(apiKey)}`, '/v2/orders/[redacted]'],
  ['partly encoded key', `/v2/x?q=${apiKey.slice(0, 2)}%5F${apiKey.slice(3)}`, '/v2/x?q=[redacted]'],
  ['token[]', `/feed/posts?token[]=${jwt}`, '/feed/posts?token[]=[redacted]'],
  ['auth', `/feed/posts?auth=${jwt}`, '/feed/posts?auth=[redacted]'],
  ['authorization=Bearer', `/feed/posts?authorization=Bearer%20${jwt}`, '/feed/posts?authorization=[redacted]'],
  ['authorization=Bearer+', `/feed/posts?authorization=Bearer+${jwt}&x=1`, '/feed/posts?authorization=[redacted]&x=[redacted]'],
  ['JWT as a path segment', `/feed/post/${jwt}`, '/feed/post/[redacted]'],
  ['JWT under another name', `/feed/posts?state=${jwt}&page=1`, '/feed/posts?state=[redacted]&page=1'],
  ['JWT with encoded dots', `/feed/post/${jwt.replace(/\./g, '%2E')}`, '/feed/post/[redacted]'],
  ['bare key without a name', `/v2/orders?${apiKey}`, '/v2/orders?[redacted]']
]

test('request log: credentials never reach the log, however the parameter is spelled', async () => {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString())
      done()
    }
  })
  const app = createServer({ logger: pino({ level: 'info' }, sink) })
  requestLog(app)
  app.get('/*', async () => ({ ok: true }))
  await app.ready()
  for (const [, url] of spellings) await app.inject({ method: 'GET', url })
  await app.close()
  const logged = lines
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; url?: string })
    .filter((entry) => entry.msg === 'request')
    .map((entry) => entry.url)
  assert.equal(logged.length, spellings.length)
  spellings.forEach(([name, , expected], i) => assert.equal(logged[i], expected, name))
  const all = lines.join('')
  for (const secret of [apiKey, channelKey, jwt, apiKey.slice(3), jwt.split('.')[1] as string, jwt.split('.')[2] as string]) {
    assert.ok(!all.includes(secret), 'a credential reached the log')
  }
})

test('redactUrl: by value and by name, every spelling', () => {
  for (const [name, url, expected] of spellings) assert.equal(redactUrl(url), expected, name)
})

test('redactUrl: paths and allow-listed parameters without credentials come out unchanged', () => {
  const untouched = [
    '/',
    '/health',
    '/v2/orders?page=2&pageSize=50&statuses=NEW',
    '/api/private/v1/user/ann%40example.com',
    '/feed/posts?cursor=eyJpZCI6MTJ9',
    '/x?sort=name&order=desc;limit=2',
    '/docs/check_abcdefghijklmnopqrstuvwxyz0123456789',
    '/v2/orders/MK_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345',
    '/x?page=%E2%82%AC'
  ]
  for (const url of untouched) assert.equal(redactUrl(url), url)
})

function captured() {
  const lines: string[] = []
  const writes: string[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString())
      lines.push(...chunk.toString().split('\n').filter(Boolean))
      done()
    }
  })
  return { lines, writes, sink }
}

test("request log: lines come in batches, in pino's own format, with the time each response finished", async () => {
  const { lines, writes, sink } = captured()
  const logger = pino({ level: 'info' }, sink).child({ service: 'demo' })
  const app = createServer({ logger })
  // A delay no test run reaches, so that only a full batch or closing writes.
  requestLog(app, { delayMs: 60_000 })
  app.get('/items/:id', async () => ({ ok: true }))
  await app.ready()
  for (let i = 0; i < REQUEST_LOG_BATCH - 1; i++) await app.inject({ method: 'GET', url: `/items/${i}` })
  assert.equal(lines.length, 0, 'lines wait for their batch')
  const before = Date.now()
  await app.inject({ method: 'GET', url: '/items/1?status=%22y%22' })
  const after = Date.now()
  assert.equal(writes.length, 1, 'a full batch is written at once, in one write')
  assert.deepEqual(
    lines.map((l) => (JSON.parse(l) as { url: string }).url),
    [...Array.from({ length: REQUEST_LOG_BATCH - 1 }, (_, i) => `/items/${i}`), '/items/1?status=%22y%22']
  )

  const line = JSON.parse(lines.at(-1) as string) as Record<string, unknown>
  assert.deepEqual(Object.keys(line), ['level', 'time', 'pid', 'hostname', 'service', 'reqId', 'method', 'url', 'statusCode', 'ms', 'msg'])
  assert.equal(line.level, 30)
  assert.ok((line.time as number) >= before && (line.time as number) <= after, 'the time the response finished, not the time of the write')
  assert.deepEqual(
    { service: line.service, method: line.method, url: line.url, statusCode: line.statusCode, msg: line.msg },
    { service: 'demo', method: 'GET', url: '/items/1?status=%22y%22', statusCode: 200, msg: 'request' }
  )
  assert.equal(typeof line.reqId, 'string')
  // The same line as pino writes it itself, but for the time.
  const own = captured()
  pino({ level: 'info' }, own.sink)
    .child({ service: 'demo' })
    .child({ reqId: line.reqId })
    .info({ method: 'GET', url: '/items/1?status=%22y%22', statusCode: 200, ms: line.ms }, 'request')
  assert.equal(lines.at(-1), (own.lines[0] as string).replace(/"time":\d+/, `"time":${line.time as number}`))

  lines.length = 0
  await app.inject({ method: 'GET', url: '/items/last' })
  await app.close()
  assert.deepEqual(
    lines.map((l) => (JSON.parse(l) as { url: string }).url),
    ['/items/last'],
    'closing the app writes what waits'
  )
})

test('request log: a line that waits is written after the batch delay', async () => {
  const { lines, sink } = captured()
  const app = createServer({ logger: pino({ level: 'info' }, sink) })
  requestLog(app, { delayMs: 50 })
  app.get('/one', async () => ({ ok: true }))
  await app.ready()
  await app.inject({ method: 'GET', url: '/one' })
  const deadline = Date.now() + 5000
  while (lines.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  assert.deepEqual(
    lines.map((l) => (JSON.parse(l) as { url: string }).url),
    ['/one'],
    'written without a full batch or a close'
  )
  await app.close()
})

test('request log: a process that exits right after a response still writes its line (stdout as users run it)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-request-log-'))
  const script = path.join(dir, 'exit-now.mts')
  const src = path.resolve(import.meta.dirname, '../../src/core')
  fs.writeFileSync(
    script,
    `
    import { createLogger } from ${JSON.stringify(path.join(src, 'logger.ts'))}
    import { createServer } from ${JSON.stringify(path.join(src, 'http/server.ts'))}
    import { requestLog } from ${JSON.stringify(path.join(src, 'http/plugins/request-log.ts'))}
    const app = createServer({ logger: createLogger('info', { format: 'json' }) })
    requestLog(app)
    app.get('/bye', async () => ({ ok: true }))
    await app.ready()
    for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/bye?page=' + i })
    process.exit(0)
  `
  )
  try {
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'info' } })
    assert.equal(run.status, 0, run.stderr)
    const urls = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { url?: string }).url)
      .filter(Boolean)
    assert.deepEqual(urls, ['/bye?page=0', '/bye?page=1', '/bye?page=2'])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test("request log: the server's own secrets are redacted wherever they appear, under any name and as path segments", async () => {
  const secret = `tok${randomToken(20)}`
  registerServerSecret(secret)
  const { lines, sink } = captured()
  const logger = pino({ level: 'info', hooks: { streamWrite: redactServerSecrets } }, sink)
  const app = createServer({ logger })
  requestLog(app, { delayMs: 10 })
  app.get('/*', async (request) => {
    request.log.warn({ detail: `the token ${secret} was seen` }, `message with ${secret}`)
    return { ok: true }
  })
  await app.ready()
  const urls = [
    `/api/status/${secret}`,
    `/api/status/${encodeAll(secret)}`,
    `/api/status?page=${secret}`,
    `/api/status;page=${secret}`,
    `/api/x/${secret.slice(0, 5)}%${secret.charCodeAt(5).toString(16)}${secret.slice(6)}/y`
  ]
  for (const url of urls) assert.equal((await app.inject({ method: 'GET', url })).statusCode, 200, url)
  await app.close()
  const all = lines.join('\n')
  assert.ok(!all.includes(secret), all)
  assert.ok(!all.includes(secret.slice(3)), 'not even in part')
  const logged = lines.map((l) => JSON.parse(l) as { msg: string; url?: string }).filter((l) => l.msg === 'request')
  assert.equal(logged.length, urls.length)
  assert.deepEqual(
    logged.map((l) => l.url),
    [
      '/api/status/[redacted]',
      '/api/status/[redacted]',
      '/api/status?page=[redacted]',
      '/api/status;page=[redacted]',
      '/api/x/[redacted]/y'
    ]
  )
  assert.ok(lines.some((l) => l.includes('message with [redacted]')))
  // Short values are never treated as secrets (they would redact ordinary words).
  registerServerSecret('short')
  assert.equal(redactUrl('/short?page=short'), '/short?page=short')
})

test('request log: successful /health probes are debug lines; failing probes and other requests stay at info', async () => {
  async function logged(level: string) {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString())
        done()
      }
    })
    const app = createServer({ logger: pino({ level }, sink) })
    requestLog(app, { delayMs: 1 })
    let healthy = true
    app.get('/health', async (_request, reply) => (healthy ? { status: 'ok' } : reply.code(503).send({ status: 'down' })))
    app.get('/items', async () => ({ ok: true }))
    await app.ready()
    for (let i = 0; i < 3; i++) assert.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200)
    healthy = false
    assert.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 503)
    assert.equal((await app.inject({ method: 'GET', url: '/items' })).statusCode, 200)
    await app.close()
    return lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; url: string; statusCode: number })
      .filter((entry) => entry.msg === 'request')
      .map((entry) => `${entry.level} ${entry.url} ${entry.statusCode}`)
  }
  assert.deepEqual(await logged('info'), ['30 /health 503', '30 /items 200'])
  assert.deepEqual(await logged('debug'), ['20 /health 200', '20 /health 200', '20 /health 200', '30 /health 503', '30 /items 200'])
})
