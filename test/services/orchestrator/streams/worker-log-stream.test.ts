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
    pollMs: 20
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

test('invalid task id 403, unknown task 404, no token 401', async () => {
  for (const id of ['bad.id', 'a%20b', '..%2F..%2Fetc']) {
    const response = await fetch(`${base}/api/workers/${id}/logs/stream`, { headers: { authorization: `Bearer ${TOKEN}` } })
    assert.equal(response.status, 403, id)
    assert.deepEqual(await response.json(), { error: 'Invalid task id' })
  }
  const unknown = await fetch(`${base}/api/workers/unknown-1/logs/stream`, { headers: { authorization: `Bearer ${TOKEN}` } })
  assert.equal(unknown.status, 404)
  assert.equal(typeof ((await unknown.json()) as { error: unknown }).error, 'string')
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
