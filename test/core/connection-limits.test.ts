// @quartet-test-once: load-like (thousands of stalled sockets) and independent of the database.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { spawn } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
import { createInterface } from 'node:readline'
import { test } from 'node:test'
import pino from 'pino'
import { Server as SocketIoServer } from 'socket.io'
import { io as connectSocketIo } from 'socket.io-client'
import { createServer, type App, type ConnectionLimits } from '../../src/core/http/server.js'
import { health } from '../../src/core/http/plugins/health.js'
import type { ErrorFormatter } from '../../src/core/http/plugins/error-shape.js'

const shape: ErrorFormatter = (error, request) => ({
  statusCode: error.statusCode,
  body: { problem: error.message, code: error.code, id: request.id }
})

/** Short limits so the test runs in seconds; production defaults are in server.ts. */
const fast: ConnectionLimits = {
  requestTimeout: 600,
  headersTimeout: 400,
  keepAliveTimeout: 300,
  connectionTimeout: 1500,
  timeoutCheckInterval: 100
}

async function startApp(connections: ConnectionLimits): Promise<{ app: App; port: number }> {
  const app = createServer({ logger: pino({ level: 'silent' }), errorFormatter: shape, connections })
  health(app, { name: 'test' })
  app.post('/upload', async (request) => ({ received: request.body }))
  app.get('/events', (request, reply) => {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' })
    let n = 0
    const timer = setInterval(() => {
      reply.raw.write(`data: ${n++}\n\n`)
    }, 100)
    request.raw.on('close', () => clearInterval(timer))
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: (app.server.address() as net.AddressInfo).port }
}

interface Outcome {
  text: string
  ms: number
}

/** A raw connection that sends `text` (maybe nothing) and then stalls; resolves with what came back when the server closes it. */
function stall(port: number, text: string, localAddress = '127.0.0.1'): { connected: Promise<void>; closed: Promise<Outcome> } {
  const started = Date.now()
  const socket = net.connect({ port, host: '127.0.0.1', localAddress })
  let answer = ''
  socket.on('data', (chunk) => {
    answer += chunk.toString()
  })
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => {
      if (text) socket.write(text)
      resolve()
    })
    socket.once('error', reject)
  })
  const closed = new Promise<Outcome>((resolve) => {
    socket.on('error', () => {})
    socket.on('close', () => resolve({ text: answer, ms: Date.now() - started }))
  })
  return { connected, closed }
}

function bodyOf(text: string): { code?: string; problem?: string } {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { code?: string }
}

/** A request on a fresh connection from `localAddress`, with its round-trip time. */
function request(
  port: number,
  path: string,
  options: { method?: string; body?: string; localAddress?: string } = {}
): Promise<{ status: number; ms: number }> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        agent: false,
        localAddress: options.localAddress ?? '127.0.0.1',
        headers: options.body ? { 'content-type': 'application/json' } : {}
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - started }))
      }
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

const stalledUpload = 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":'

test('connection limits: a stalled body, stalled headers and a silent socket get 408 in the service shape', async (t) => {
  const { app, port } = await startApp(fast)
  t.after(() => app.close())
  const [body, headers, silent] = await Promise.all([
    stall(port, stalledUpload).closed,
    stall(port, 'GET /health HTTP/1.1\r\nHost: x\r\n').closed,
    stall(port, '').closed
  ])
  for (const [name, outcome, limit] of [
    ['body', body, 600],
    ['headers', headers, 400],
    ['silent', silent, 400]
  ] as const) {
    assert.match(outcome.text, /^HTTP\/1\.1 408 /, name)
    assert.equal(bodyOf(outcome.text).code, 'REQUEST_TIMEOUT', name)
    assert.ok(outcome.ms >= limit - 50 && outcome.ms < limit + 1000, `${name} closed after ${outcome.ms} ms`)
  }
})

test('connection limits: an idle kept-alive connection is closed after keepAliveTimeout', async (t) => {
  // The connection timeout is far away, so a close before it can only be the keep-alive timeout
  // (with slack for a loaded machine).
  const { app, port } = await startApp({ ...fast, connectionTimeout: 6000 })
  t.after(() => app.close())
  const { closed } = stall(port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n')
  const outcome = await closed
  assert.match(outcome.text, /^HTTP\/1\.1 200 /)
  assert.ok(outcome.ms >= 250 && outcome.ms < 3000, `closed after ${outcome.ms} ms`)
})

test('connection limits: a streaming response (SSE) outlives every timeout', async (t) => {
  const { app, port } = await startApp(fast)
  t.after(() => app.close())
  const events = await new Promise<number>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/events', agent: false }, (res) => {
      let count = 0
      res.on('data', (chunk: Buffer) => {
        count += chunk.toString().split('\n\n').length - 1
      })
      res.on('close', () => reject(new Error(`stream cut after ${count} events`)))
      // Four times the connection timeout, ten times the request timeout.
      setTimeout(() => {
        res.removeAllListeners('close')
        req.destroy()
        resolve(count)
      }, 6000)
    })
    req.on('error', reject)
  })
  assert.ok(events >= 40, `${events} events`)
})

test('connection limits: a quiet Socket.IO WebSocket outlives every timeout', async (t) => {
  const { app, port } = await startApp(fast)
  const io = new SocketIoServer(app.server, { serveClient: false })
  t.after(async () => {
    await new Promise<void>((resolve) => {
      void io.close(() => resolve())
    })
    await app.close()
  })
  const client = connectSocketIo(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false })
  t.after(() => client.close())
  await new Promise<void>((resolve, reject) => {
    client.on('connect', resolve)
    client.on('connect_error', reject)
  })
  let disconnected = false
  client.on('disconnect', () => {
    disconnected = true
  })
  await new Promise((resolve) => setTimeout(resolve, 3000))
  const received = new Promise<string>((resolve) => client.once('hello', resolve))
  io.emit('hello', 'still here')
  assert.equal(await received, 'still here')
  assert.equal(disconnected, false)
})

function openFilesLimit(): number | undefined {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'))
    return match?.[1] === 'unlimited' ? Infinity : match ? Number(match[1]) : undefined
  } catch {
    return undefined
  }
}

/**
 * The attacker, in a process of its own as in the review: opens `count` stalled uploads from
 * 127.0.0.2 in batches, prints "ready" once all are open, then one JSON line with what each got.
 */
const ATTACKER = `
import net from 'node:net'
const [port, count, upload] = [Number(process.argv[1]), Number(process.argv[2]), process.argv[3]]
const outcomes = []
const closed = []
for (let batch = 0; batch < count; batch += 250) {
  const opened = []
  for (let i = batch; i < Math.min(batch + 250, count); i++) {
    let started = Date.now()
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' })
    let text = ''
    socket.on('data', (chunk) => { text += chunk.toString() })
    socket.on('error', () => {})
    closed.push(new Promise((resolve) => socket.on('close', () => { outcomes.push({ text, ms: Date.now() - started }); resolve() })))
    opened.push(new Promise((resolve) => socket.once('connect', () => { started = Date.now(); socket.write(upload); resolve() })))
  }
  await Promise.all(opened)
}
process.stdout.write('ready\\n')
await Promise.all(closed)
process.stdout.write(JSON.stringify(outcomes) + '\\n')
`

test('connection limits: 2,000 stalled uploads from one address neither starve /health nor stay open', async (t) => {
  const STALLED = 2000
  const limit = openFilesLimit()
  if (limit === undefined || limit < STALLED + 500) {
    t.skip(`needs ${STALLED + 500} open files per process (limit: ${limit ?? 'unknown'}; raise it with ulimit -n)`)
    return
  }
  const requestTimeout = 6000
  const { app, port } = await startApp({ ...fast, requestTimeout, headersTimeout: 2000, connectionTimeout: 10_000 })
  t.after(() => app.close())
  // The attacker is 127.0.0.2, so its cap (default 256) leaves 127.0.0.1 untouched.
  const attacker = spawn(process.execPath, ['--input-type=module', '-e', ATTACKER, String(port), String(STALLED), stalledUpload], {
    stdio: ['ignore', 'pipe', 'inherit']
  })
  t.after(() => {
    attacker.kill()
  })
  const lines = createInterface({ input: attacker.stdout })[Symbol.asyncIterator]()
  assert.equal((await lines.next()).value, 'ready')
  // Refused connections are gone within a second; the admitted ones stay stalled until their timeout.
  await new Promise((resolve) => setTimeout(resolve, 1200))

  const probes = await Promise.all([request(port, '/health'), request(port, '/upload', { method: 'POST', body: '{"a":1}' })])
  for (const probe of probes) {
    assert.equal(probe.status, 200)
    assert.ok(probe.ms < 1000, `answered in ${probe.ms} ms`)
  }

  const outcomes = JSON.parse(String((await lines.next()).value)) as Outcome[]
  assert.equal(outcomes.length, STALLED)
  const byStatus = new Map<string, number>()
  for (const outcome of outcomes) {
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(outcome.text)?.[1] ?? 'none'
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
    assert.ok(status === '408' || status === '429', `a stalled connection got ${JSON.stringify(outcome.text.slice(0, 40))}`)
    if (status === '429') {
      assert.equal(bodyOf(outcome.text).code, 'RATE_LIMITED')
      assert.match(outcome.text, /\r\nretry-after: 1\r\n/)
      assert.ok(outcome.ms < 5000, `a refused connection stayed open ${outcome.ms} ms`)
    } else {
      assert.equal(bodyOf(outcome.text).code, 'REQUEST_TIMEOUT')
      assert.ok(outcome.ms < requestTimeout + 5000, `a stalled connection stayed open ${outcome.ms} ms`)
    }
  }
  // At least the cap's worth waited for their timeout; slots freed by them may admit later ones.
  assert.ok((byStatus.get('408') ?? 0) >= 256, JSON.stringify(Object.fromEntries(byStatus)))
  assert.ok((byStatus.get('429') ?? 0) >= STALLED - 2 * 256, JSON.stringify(Object.fromEntries(byStatus)))
})

test('connection limits: the per-client cap is configurable and frees slots as connections close', async (t) => {
  const { app, port } = await startApp({ ...fast, maxConnectionsPerClient: 2 })
  t.after(() => app.close())
  const first = stall(port, stalledUpload)
  const second = stall(port, stalledUpload)
  await Promise.all([first.connected, second.connected])
  const third = await stall(port, '').closed
  assert.match(third.text, /^HTTP\/1\.1 429 /)
  assert.ok(third.ms < 1500, `refused after ${third.ms} ms`)
  await Promise.all([first.closed, second.closed])
  assert.equal((await request(port, '/health')).status, 200)
})

test('connection limits: defaults time requests out; a service may override each', async () => {
  const plain = createServer({ logger: pino({ level: 'silent' }) })
  assert.deepEqual(
    [plain.server.requestTimeout, plain.server.headersTimeout, plain.server.keepAliveTimeout, plain.server.timeout],
    [30_000, 20_000, 5_000, 120_000]
  )
  await plain.close()
  const tuned = createServer({
    logger: pino({ level: 'silent' }),
    fastify: { requestTimeout: 8000 },
    connections: { keepAliveTimeout: 65_000, connectionTimeout: 0 }
  })
  assert.deepEqual(
    [tuned.server.requestTimeout, tuned.server.headersTimeout, tuned.server.keepAliveTimeout, tuned.server.timeout],
    [8000, 8000, 65_000, 0]
  )
  await tuned.close()
})

test('a URL with unencoded characters is a 400 that says so, in the service shape', async (t) => {
  const { app, port } = await startApp(fast)
  t.after(() => app.close())
  for (const line of ['GET /health?q=café HTTP/1.1', 'GET /health?q=two words HTTP/1.1', 'GET /über HTTP/1.1']) {
    const outcome = await stall(port, `${line}\r\nHost: x\r\n\r\n`).closed
    assert.match(outcome.text, /^HTTP\/1\.1 400 /, line)
    const body = bodyOf(outcome.text)
    assert.equal(body.code, 'BAD_REQUEST', line)
    assert.match(body.problem ?? '', /unencoded characters.*percent-encode/, line)
  }
  // Encoded, the same URL is fine.
  assert.equal((await request(port, `/health?q=${encodeURIComponent('café')}`)).status, 200)
})
