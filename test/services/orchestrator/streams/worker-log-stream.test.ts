import assert from 'node:assert/strict'
import fs from 'node:fs'
import type net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { registerErrorShape } from '../../../../src/services/orchestrator/gates/errors.js'
import { registerGates } from '../../../../src/services/orchestrator/gates/register-gates.js'
import { tokenPrincipal } from '../../../../src/services/orchestrator/principal.js'
import { registerWorkerLogStream } from '../../../../src/services/orchestrator/streams/streams.routes.js'
import { tailLogFile } from '../../../../src/services/orchestrator/streams/log-tail.js'
import { connectSse, type SseClient } from './sse-client.js'

const TOKEN = 'log-token-0123456789abcdefghijklm'
let dir: string
let app: FastifyInstance
let base: string
const states = new Map<string, { running: boolean; status: string }>()

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-logs-'))
  app = Fastify()
  registerErrorShape(app)
  registerGates(app, {
    auth: { token: TOKEN, disabled: false, defaultDeny: false },
    principal: tokenPrincipal('tok:test'),
    assertControl: () => {},
    publicPrefixes: [],
    rateLimit: { max: 100, windowMs: 60_000 }
  })
  registerWorkerLogStream(app, {
    resolveLogFile: (taskId) => (taskId.startsWith('unknown') ? null : path.join(dir, `task-${taskId}.log`)),
    runState: async (taskId) => states.get(taskId) ?? { running: true, status: 'EXECUTING' },
    pollMs: 20,
    maxLagBytes: 1024 * 1024
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`
})
after(async () => {
  await app.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const lines = (client: SseClient) =>
  client.frames.filter((f) => f.event === 'log_line').map((f) => (JSON.parse(f.data) as { line: string }).line)

test('backfill on connect, then each new complete line; CRLF stripped, empty lines skipped', async () => {
  const file = path.join(dir, 'task-t1.log')
  fs.writeFileSync(file, 'first\r\n\nsecond\n   \nthird-partial')
  const client = await connectSse(`${base}/api/workers/t1/logs/stream?token=${TOKEN}`)
  assert.equal(client.status, 200)
  await client.waitFor(() => lines(client).length >= 2)
  await new Promise((resolve) => setTimeout(resolve, 80))
  assert.deepEqual(lines(client), ['first', 'second'])
  fs.appendFileSync(file, '-done\nfourth\r\n')
  await client.waitFor(() => lines(client).length >= 4)
  assert.deepEqual(lines(client), ['first', 'second', 'third-partial-done', 'fourth'])
  const frame = JSON.parse(client.frames[0]?.data ?? '{}') as Record<string, unknown>
  assert.deepEqual(Object.keys(frame).sort(), ['line', 'taskId', 'ts', 'type'])
  assert.equal(frame.type, 'log_line')
  assert.equal(frame.taskId, 't1')
  assert.ok(!Number.isNaN(Date.parse(String(frame.ts))))
  assert.equal(
    client.frames.some((f) => f.event === 'log_unavailable'),
    false
  )
  client.close()
})

test('a missing log: log_unavailable once, then the lines when the file appears', async () => {
  const client = await connectSse(`${base}/api/workers/t2/logs/stream`, { authorization: `Bearer ${TOKEN}` })
  await client.waitFor(() => client.frames.length >= 1)
  assert.equal(client.frames[0]?.event, 'log_unavailable')
  assert.deepEqual(JSON.parse(client.frames[0]?.data ?? '{}').taskId, 't2')
  await new Promise((resolve) => setTimeout(resolve, 100))
  fs.writeFileSync(path.join(dir, 'task-t2.log'), 'appeared\n')
  await client.waitFor(() => lines(client).length >= 1)
  assert.deepEqual(lines(client), ['appeared'])
  assert.equal(client.frames.filter((f) => f.event === 'log_unavailable').length, 1)
  client.close()
})

test('invalid task id 403, unknown task 200 with log_unavailable, no token 401', async () => {
  for (const id of ['bad.id', 'a%20b', '..%2F..%2Fetc']) {
    const response = await fetch(`${base}/api/workers/${id}/logs/stream`, { headers: { authorization: `Bearer ${TOKEN}` } })
    assert.equal(response.status, 403, id)
    assert.deepEqual(await response.json(), { error: 'Invalid task id' })
  }
  const unknown = await connectSse(`${base}/api/workers/unknown-1/logs/stream`, { authorization: `Bearer ${TOKEN}` })
  assert.equal(unknown.status, 200)
  await unknown.waitFor(() => unknown.frames.length >= 1)
  assert.equal(unknown.frames[0]?.event, 'log_unavailable')
  assert.equal(JSON.parse(unknown.frames[0]!.data).reason, 'no such task')
  unknown.close()
  assert.equal((await fetch(`${base}/api/workers/t1/logs/stream`)).status, 401)
})

test('tail: a truncated file is read again from the start; a long file backfills only its end', async () => {
  const file = path.join(dir, 'direct.log')
  fs.writeFileSync(file, `${'old line\n'.repeat(1000)}last old\n`)
  const seen: string[] = []
  const tail = tailLogFile({
    file,
    pollMs: 10,
    backfillBytes: 100,
    onLine: (line) => seen.push(line),
    onUnavailable: () => seen.push('<unavailable>')
  })
  try {
    const until = async (predicate: () => boolean) => {
      const deadline = Date.now() + 5000
      while (!predicate()) {
        assert.ok(Date.now() < deadline, JSON.stringify(seen.slice(-5)))
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
    await until(() => seen.includes('last old'))
    assert.ok(seen.length <= 12, `backfilled ${seen.length} lines`)
    assert.deepEqual(
      seen.filter((line) => line !== 'old line' && line !== 'last old'),
      []
    )
    seen.length = 0
    fs.writeFileSync(file, 'fresh\n')
    await until(() => seen.includes('fresh'))
    assert.deepEqual(seen, ['fresh'])
  } finally {
    tail.close()
  }
})

test('ids are byte offsets: Last-Event-ID resumes after the last line seen; log_end carries the final status', async () => {
  const file = path.join(dir, 'task-t5.log')
  fs.writeFileSync(file, 'one\ntwo\n')
  const first = await connectSse(`${base}/api/workers/t5/logs/stream?token=${TOKEN}`)
  await first.waitFor(() => lines(first).length >= 2)
  const ids = first.frames.filter((f) => f.event === 'log_line').map((f) => f.id)
  assert.deepEqual(ids, ['4', '8'])
  first.close()
  fs.appendFileSync(file, 'three\nfour\n')
  states.set('t5', { running: false, status: 'DONE' })
  const again = await connectSse(`${base}/api/workers/t5/logs/stream?token=${TOKEN}`, { 'last-event-id': '4' })
  await again.waitFor(() => again.frames.some((f) => f.event === 'log_end'))
  assert.deepEqual(lines(again), ['two', 'three', 'four'])
  const end = again.frames.at(-1)!
  assert.equal(end.event, 'log_end')
  assert.equal(end.id, String(fs.statSync(file).size))
  assert.equal(JSON.parse(end.data).status, 'DONE')
})

test('a slow reader of a 2 MB log is never disconnected: it lags, and past the limit gets a log_gap with the bytes skipped', async () => {
  const file = path.join(dir, 'task-t6.log')
  const line = (i: number) => `line ${String(i).padStart(7, '0')} ${'x'.repeat(90)}\n`
  const count = 20_000
  fs.writeFileSync(file, Array.from({ length: count }, (_, i) => line(i)).join(''))
  const size = fs.statSync(file).size
  assert.ok(size > 2_000_000)
  // A raw socket that reads nothing for a while: the server's writes block, it must wait, not drop.
  const http = await import('node:http')
  const frames: string[] = []
  let closedEarly = false
  const done = new Promise<void>((resolve, reject) => {
    const request = http.get(`${base}/api/workers/t6/logs/stream?token=${TOKEN}`, { headers: { 'last-event-id': '0' } }, (response) => {
      assert.equal(response.statusCode, 200)
      response.pause()
      setTimeout(() => {
        states.set('t6', { running: false, status: 'NO_GO' })
        response.setEncoding('utf8')
        let buffer = ''
        response.on('data', (chunk: string) => {
          buffer += chunk
          const parts = buffer.split('\n\n')
          buffer = parts.pop() ?? ''
          frames.push(...parts)
        })
        response.resume()
      }, 1500)
      response.on('end', () => resolve())
      response.on('aborted', () => {
        closedEarly = true
        resolve()
      })
    })
    request.on('error', reject)
  })
  await done
  assert.equal(closedEarly, false)
  const gaps = frames.filter((f) => f.includes('event: log_gap'))
  const logLines = frames.filter((f) => f.includes('event: log_line'))
  const end = frames.at(-1)!
  assert.match(end, /event: log_end/)
  assert.match(end, /"status":"NO_GO"/)
  assert.match(end, new RegExp(`^id: ${size}$`, 'm'))
  // Started 2 MB behind with a 1 MiB limit: one gap, then the newest lines to the end, in order.
  assert.equal(gaps.length, 1)
  const skipped = JSON.parse(/data: (.*)/.exec(gaps[0]!)![1]!).skippedBytes as number
  assert.ok(skipped > 0)
  const numbers = logLines.map((f) => Number(/line (\d{7})/.exec(f)![1]))
  assert.equal(numbers.at(-1), count - 1)
  for (let i = 1; i < numbers.length; i++) assert.equal(numbers[i], numbers[i - 1]! + 1)
  assert.equal(numbers.length * line(0).length + skipped, size)
})
