import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, test } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { createTestDatabase, type TestDatabase } from '../../../helpers/db.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createEventsRepository, type EventsRepository } from '../../../../src/services/orchestrator/state/events.repository.js'
import { createProjectsRepository } from '../../../../src/services/orchestrator/state/projects.repository.js'
import { createEventHub, type EventHub, type EventHubOptions } from '../../../../src/services/orchestrator/streams/event-hub.js'
import { registerEventStream } from '../../../../src/services/orchestrator/streams/streams.routes.js'
import type { SseOptions } from '../../../../src/services/orchestrator/streams/sse.js'
import { registerErrorShape } from '../../../../src/services/orchestrator/gates/errors.js'
import { registerGates } from '../../../../src/services/orchestrator/gates/register-gates.js'
import { tokenPrincipal } from '../../../../src/services/orchestrator/principal.js'
import { connectSse, type SseClient } from './sse-client.js'

const TOKEN = 'stream-token-0123456789abcdefghij'
let database: TestDatabase
let events: EventsRepository
let projectCounter = 0
const cleanups: (() => Promise<void> | void)[] = []

before(async () => {
  database = await createTestDatabase([orchestratorMigrations])
  events = createEventsRepository(database.db as OrchestratorDb, () => new Date())
})
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  await database.close()
})

interface Setup {
  app: FastifyInstance
  hub: EventHub
  projectId: number
  url: string
  /** Appends events of any shape: the stream carries types it does not know (rows of older versions) as they are. */
  append(
    count: number,
    make?: (i: number) => { type?: string; sprintId?: string; taskId?: string; data?: Record<string, unknown> }
  ): Promise<void>
}

async function setup(hubOptions: Partial<EventHubOptions> = {}, sse: SseOptions = {}): Promise<Setup> {
  const projectId = await createProjectsRepository(database.db as OrchestratorDb, () => new Date()).ensure(
    `/tmp/quartet-stream-${process.pid}-${++projectCounter}`
  )
  const hub = createEventHub({ events, pollMs: 20, ...hubOptions })
  const app = Fastify()
  registerErrorShape(app)
  registerGates(app, {
    auth: { token: TOKEN, disabled: false, defaultDeny: false },
    principal: tokenPrincipal('tok:test'),
    assertControl: () => {},
    publicPrefixes: [],
    rateLimit: { max: 100, windowMs: 60_000 }
  })
  registerEventStream(app, { hub, projectId, sse })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address() as net.AddressInfo
  cleanups.push(async () => {
    hub.close()
    await app.close()
  })
  return {
    app,
    hub,
    projectId,
    url: `http://127.0.0.1:${address.port}/api/events`,
    async append(count, make = () => ({})) {
      for (let i = 0; i < count; i++) {
        await events.append(projectId, { type: 'tick', data: { i }, ...make(i) } as never)
        hub.notify(projectId)
      }
    }
  }
}

const seqs = (client: SseClient) => client.frames.filter((f) => f.event !== 'gap').map((f) => Number(f.id))
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
async function waitForSubscribers(s: Setup, count: number) {
  const deadline = Date.now() + 5000
  while (s.hub.subscriberCount(s.projectId) !== count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} subscribers, have ${s.hub.subscriberCount(s.projectId)}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

test('three clients receive 200 appended events in order, with ids, types and the stored event as data', async () => {
  const s = await setup()
  const clients = await Promise.all(
    [1, 2, 3].map(() => connectSse(s.url, { authorization: `Bearer ${TOKEN}`, origin: 'http://localhost:5173' }))
  )
  await waitForSubscribers(s, 3)
  await s.append(200, (i) => ({ type: i % 2 ? 'task_done' : 'task_started', taskId: `t${i}` }))
  for (const client of clients) {
    await client.waitFor(() => client.frames.length >= 200)
    assert.equal(client.status, 200)
    assert.match(String(client.headers['content-type']), /^text\/event-stream/)
    assert.equal(client.headers['cache-control'], 'no-cache')
    assert.equal(client.headers['x-accel-buffering'], 'no')
    assert.equal(client.headers['access-control-allow-origin'], 'http://localhost:5173')
    assert.equal(client.retry, 3000)
    assert.deepEqual(seqs(client), range(1, 200))
    const frame = client.frames[7]
    assert.equal(frame?.event, 'task_done')
    const data = JSON.parse(frame?.data ?? '{}') as Record<string, unknown>
    assert.deepEqual([data.seq, data.type, data.taskId, (data.data as { i: number }).i], [8, 'task_done', 't7', 7])
    client.close()
  }
  await waitForSubscribers(s, 0)
})

test('reconnect with Last-Event-ID (or ?after=) replays exactly the missed events, then goes live', async () => {
  const s = await setup()
  const first = await connectSse(`${s.url}?token=${TOKEN}`)
  await waitForSubscribers(s, 1)
  await s.append(50)
  await first.waitFor(() => first.frames.length === 50)
  first.close()
  await waitForSubscribers(s, 0)
  await s.append(30)
  const again = await connectSse(`${s.url}?token=${TOKEN}&after=3`, { 'last-event-id': first.frames.at(-1)?.id ?? '' })
  await again.waitFor(() => again.frames.length >= 30)
  await waitForSubscribers(s, 1)
  await s.append(5)
  await again.waitFor(() => again.frames.length >= 35)
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.deepEqual(seqs(again), range(51, 85))
  again.close()
  const byQuery = await connectSse(`${s.url}?after=80`, { authorization: `Bearer ${TOKEN}` })
  await byQuery.waitFor(() => byQuery.frames.length >= 5)
  assert.deepEqual(seqs(byQuery), range(81, 85))
  byQuery.close()
})

test('replay while events are being appended: no gap, no duplicate', async () => {
  const s = await setup({ batchSize: 7 })
  await s.append(40)
  const appending = s.append(120)
  const client = await connectSse(`${s.url}?after=0`, { authorization: `Bearer ${TOKEN}` })
  await appending
  await client.waitFor(() => client.frames.length >= 160)
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.deepEqual(seqs(client), range(1, 160))
  client.close()
})

test('past the replay cap a gap frame names what was skipped, then the newest events follow', async () => {
  const s = await setup({ replayCap: 10 })
  await s.append(30)
  const client = await connectSse(`${s.url}?after=0`, { authorization: `Bearer ${TOKEN}` })
  await client.waitFor(() => client.frames.length >= 11)
  assert.deepEqual(client.frames[0], { id: '20', event: 'gap', data: JSON.stringify({ missed: 20, fromSeq: 1, toSeq: 20 }) })
  assert.deepEqual(seqs(client), range(21, 30))
  client.close()
})

test('filters: sprintId and types, in replay and live', async () => {
  const s = await setup()
  await s.append(12, (i) => ({ sprintId: i % 3 === 0 ? 's1' : 's2', type: i % 2 ? 'a' : 'b' }))
  const client = await connectSse(`${s.url}?after=0&sprintId=s1&types=a,c`, { authorization: `Bearer ${TOKEN}` })
  await client.waitFor(() => client.frames.length >= 2)
  await s.append(12, (i) => ({ sprintId: i % 3 === 0 ? 's1' : 's2', type: i % 2 ? 'a' : 'b' }))
  await client.waitFor(() => client.frames.length >= 4)
  await new Promise((resolve) => setTimeout(resolve, 100))
  // i = 3 and 9 are sprint s1 with type a, in both batches (seq = i + 1, then + 12).
  assert.deepEqual(seqs(client), [4, 10, 16, 22])
  client.close()
})

test('a heartbeat comment arrives on an idle stream; a bad Last-Event-ID is a 400', async () => {
  const s = await setup({}, { heartbeatMs: 40 })
  const client = await connectSse(s.url, { authorization: `Bearer ${TOKEN}` })
  await client.waitFor(() => client.comments.includes('ping'), 2000)
  assert.equal(client.frames.length, 0)
  client.close()
  const bad = await fetch(s.url, { headers: { authorization: `Bearer ${TOKEN}`, 'last-event-id': 'abc' } })
  assert.equal(bad.status, 400)
  assert.equal(typeof ((await bad.json()) as { error: unknown }).error, 'string')
  assert.equal((await fetch(s.url)).status, 401)
})

test('a client that never reads is disconnected past its queue cap while a reading client gets every event', async () => {
  // A burst is one hub batch (25 × 8 KiB), well inside the cap, so only a client that stops reading hits it.
  const s = await setup({ batchSize: 25 }, { maxQueuedFrames: 100, maxQueuedBytes: 256 * 1024 })
  const reader = await connectSse(s.url, { authorization: `Bearer ${TOKEN}` })
  const port = new URL(s.url).port
  const stalled = net.connect(Number(port), '127.0.0.1')
  let stalledClosed = false
  stalled.on('close', () => {
    stalledClosed = true
  })
  stalled.on('error', () => undefined)
  stalled.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`)
  stalled.pause()
  await waitForSubscribers(s, 2)
  const payload = 'x'.repeat(8 * 1024)
  let appended = 0
  while (s.hub.subscriberCount(s.projectId) === 2) {
    assert.ok(appended < 10_000, 'the stalled client was never disconnected')
    await s.append(20, () => ({ data: { payload } }))
    appended += 20
    await reader.waitFor(() => reader.frames.length >= appended, 20_000)
  }
  await s.append(20)
  appended += 20
  await reader.waitFor(() => reader.frames.length >= appended, 20_000)
  assert.deepEqual(seqs(reader), range(1, appended))
  assert.equal(s.hub.subscriberCount(s.projectId), 1)
  // Once it reads again it finds the stream ended.
  stalled.resume()
  const deadline = Date.now() + 10_000
  while (!stalledClosed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.equal(stalledClosed, true)
  reader.close()
})
