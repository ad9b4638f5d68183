import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { test } from 'node:test'
import pino from 'pino'
import { createServer } from '../../src/core/http/server.js'

async function listening(app: ReturnType<typeof createServer>): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as net.AddressInfo).port
}

function get(port: number, path: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode!, body }))
      })
      .on('error', reject)
  })
}

test('responses finished in one event-loop turn are written together, after the last of them', async (t) => {
  const app = createServer({ logger: pino({ level: 'silent' }) })
  let arrived = 0
  let finished = 0
  let release!: () => void
  const bothArrived = new Promise<void>((resolve) => (release = resolve))
  app.get('/turn/:name', async (request) => {
    const { name } = request.params as { name: string }
    if (++arrived === 2) release()
    await bothArrived
    // The second handler finishes several microtasks after the first, still in the same turn.
    if (name === 'late') for (let i = 0; i < 20; i++) await Promise.resolve()
    finished++
    return { name }
  })
  // Registered after createServer's own hooks: runs when a response is on its way to the socket.
  const finishedAtWrite: Record<string, number> = {}
  app.addHook('onSend', (request, _reply, payload, done) => {
    finishedAtWrite[(request.params as { name: string }).name] = finished
    done(null, payload)
  })
  const port = await listening(app)
  t.after(() => app.close())
  const agent = new http.Agent({ keepAlive: true })
  t.after(() => agent.destroy())

  const [early, late] = await Promise.all([get(port, '/turn/early', agent), get(port, '/turn/late', agent)])
  assert.deepEqual(JSON.parse(early.body), { name: 'early' })
  assert.deepEqual(JSON.parse(late.body), { name: 'late' })
  // Written one by one, the early answer would have left while the late handler was still running.
  assert.deepEqual(finishedAtWrite, { early: 2, late: 2 })
})

test('coalesced writes keep each answer with its request: 400 requests over 50 connections, errors among them', async (t) => {
  const app = createServer({ logger: pino({ level: 'silent' }) })
  app.get('/echo/:n', async (request) => ({ n: Number((request.params as { n: string }).n) }))
  const port = await listening(app)
  t.after(() => app.close())
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 })
  t.after(() => agent.destroy())

  const answers = await Promise.all(Array.from({ length: 400 }, (_, n) => get(port, n % 10 === 0 ? `/missing/${n}` : `/echo/${n}`, agent)))
  answers.forEach((answer, n) => {
    if (n % 10 === 0) {
      assert.equal(answer.status, 404)
      assert.match(answer.body, new RegExp(`/missing/${n}\\b`))
    } else {
      assert.equal(answer.status, 200)
      assert.deepEqual(JSON.parse(answer.body), { n })
    }
  })
})

test('pipelined requests on one connection are answered in order', async (t) => {
  const app = createServer({ logger: pino({ level: 'silent' }) })
  app.get('/echo/:n', async (request) => ({ n: Number((request.params as { n: string }).n) }))
  const port = await listening(app)
  t.after(() => app.close())

  const requests = Array.from({ length: 10 }, (_, n) => `GET /echo/${n} HTTP/1.1\r\nHost: x\r\n${n === 9 ? 'Connection: close\r\n' : ''}`)
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString()))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
    socket.write(requests.map((head) => head + '\r\n').join(''))
  })
  const bodies = [...text.matchAll(/\r\n\r\n(\{[^}]*\})/g)].map((match) => JSON.parse(match[1]!) as { n: number })
  assert.deepEqual(
    bodies.map((body) => body.n),
    Array.from({ length: 10 }, (_, n) => n)
  )
})
