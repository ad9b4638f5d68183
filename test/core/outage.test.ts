import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import { Redis } from 'ioredis'
import { sql } from 'kysely'
import pino from 'pino'
import { openDatabase } from '../../src/core/db/database.js'
import { isDependencyUnavailable } from '../../src/core/db/unavailable.js'
import { createServer, type App } from '../../src/core/http/server.js'
import { health } from '../../src/core/http/plugins/health.js'
import { databaseHealthCheck } from '../../src/core/http/plugins/database-health.js'
import type { ErrorFormatter } from '../../src/core/http/plugins/error-shape.js'
import { createRedisConnections } from '../../src/core/redis.js'
import { startProxy, type TcpProxy } from '../helpers/tcp-proxy.js'

const shape: ErrorFormatter = (error, request) => ({
  statusCode: error.statusCode,
  body: { problem: error.message, code: error.code, id: request.id }
})
const silent = pino({ level: 'silent' })

interface Answer {
  status: number
  startedAt: number
  endedAt: number
  retryAfter: string | null
  body: { code?: string; status?: string }
}

/** Eight clients requesting `path` in a loop until stopped; every answer is kept. */
function load(port: number, urlPath: string) {
  const answers: Answer[] = []
  let running = true
  const workers = Array.from({ length: 8 }, async () => {
    while (running) {
      const startedAt = Date.now()
      const response = await fetch(`http://127.0.0.1:${port}${urlPath}`)
      const body = (await response.json()) as Answer['body']
      answers.push({ status: response.status, startedAt, endedAt: Date.now(), retryAfter: response.headers.get('retry-after'), body })
    }
  })
  return {
    answers,
    async stop() {
      running = false
      await Promise.all(workers)
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Flowing → cut → every answer 503 + Retry-After in shape (never 500) → restored → 200 again. */
async function outageScenario(app: App, proxy: TcpProxy, urlPath: string, minUnavailable: number) {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as net.AddressInfo
  const traffic = load(port, urlPath)
  try {
    await sleep(800)
    const cutAt = Date.now()
    await proxy.cut()
    await sleep(2000)
    const during = await fetch(`http://127.0.0.1:${port}/health`)
    assert.equal(during.status, 503)
    assert.equal(during.headers.get('retry-after'), '5')
    const healthBody = (await during.json()) as { status: string; reason: string }
    assert.equal(healthBody.status, 'unavailable')
    assert.ok(healthBody.reason.length > 0)

    const restoredAt = Date.now()
    await proxy.restore()
    let recoveredAt = 0
    while (!recoveredAt && Date.now() - restoredAt < 8000) {
      await sleep(100)
      if (traffic.answers.some((a) => a.startedAt > restoredAt && a.status === 200)) recoveredAt = Date.now()
    }
    assert.ok(recoveredAt, 'no 200 within 8 s of the dependency coming back')
    await sleep(500)
    await traffic.stop()
    assert.equal((await fetch(`http://127.0.0.1:${port}/health`)).status, 200)

    const { answers } = traffic
    const before = answers.filter((a) => a.endedAt < cutAt)
    assert.ok(before.length > 0, 'requests flowed before the cut')
    assert.ok(
      before.every((a) => a.status === 200),
      'before the cut every request succeeds'
    )
    const unavailable = answers.filter((a) => a.status === 503)
    assert.ok(unavailable.length >= minUnavailable, `${unavailable.length} answers during the outage`)
    for (const answer of answers) assert.ok(answer.status === 200 || answer.status === 503, `answered ${answer.status}`)
    for (const answer of unavailable) {
      assert.equal(answer.retryAfter, '5')
      assert.equal(answer.body.code, 'SERVICE_UNAVAILABLE')
    }
    // Once the cut has settled, nothing succeeds until the restore.
    assert.ok(answers.filter((a) => a.startedAt > cutAt + 300 && a.endedAt < restoredAt).every((a) => a.status === 503))
    return { recoveryMs: recoveredAt - restoredAt }
  } finally {
    await proxy.restore()
    await traffic.stop()
  }
}

test(
  'outage (PostgreSQL part, skipped without DATABASE_URL): ' +
    'PostgreSQL cut behind a TCP proxy → 503 + Retry-After in shape, process alive, recovers by itself',
  { skip: process.env.DATABASE_URL ? false : 'DATABASE_URL is unset (PostgreSQL part skipped)' },
  async (t) => {
    const target = new URL(process.env.DATABASE_URL as string)
    const proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) })
    const viaProxy = new URL(target)
    viaProxy.host = `127.0.0.1:${proxy.port}`
    const database = await openDatabase({ url: viaProxy.toString(), poolSize: 4 })
    const app = createServer({ logger: silent, errorFormatter: shape })
    t.after(async () => {
      await app.close()
      await database.close()
      await proxy.cut()
    })
    health(app, { name: 'test', check: databaseHealthCheck(database.db) })
    app.get('/rows', async () => {
      const { rows } = await sql<{ one: number }>`select 1 as one from pg_sleep(0.005)`.execute(database.db)
      return { one: rows[0]?.one }
    })
    const { recoveryMs } = await outageScenario(app, proxy, '/rows', 20)
    assert.ok(recoveryMs < 5000, `recovered after ${recoveryMs} ms`)
  }
)

// ioredis queues commands while it reconnects (core/redis.ts: maxRetriesPerRequest 3), so during
// an outage a Redis-backed request takes a few seconds to fail; what matters here is that it fails
// as 503 in shape, never 500, and that the client reconnects by itself.
test(
  'outage (Redis part, skipped without REDIS_URL): Redis cut behind a TCP proxy → 503 + Retry-After in shape, recovers by itself',
  { skip: process.env.REDIS_URL ? false : 'REDIS_URL is unset (Redis part skipped)' },
  async (t) => {
    const target = new URL(process.env.REDIS_URL as string)
    const proxy = await startProxy({ host: target.hostname, port: Number(target.port || 6379) })
    const viaProxy = new URL(target)
    viaProxy.host = `127.0.0.1:${proxy.port}`
    const connections = createRedisConnections(viaProxy.toString(), silent)
    const redis = await connections.connect('outage-test')
    const app = createServer({ logger: silent, errorFormatter: shape })
    const key = `quartet-outage-test-${process.pid}`
    t.after(async () => {
      await app.close()
      await redis.del(key).catch(() => {})
      await connections.close()
      await proxy.cut()
    })
    health(app, {
      name: 'test',
      check: async () => {
        await redis.ping()
      }
    })
    app.get('/count', async () => ({ count: await redis.incr(key) }))
    const { recoveryMs } = await outageScenario(app, proxy, '/count', 1)
    assert.ok(recoveryMs < 5000, `recovered after ${recoveryMs} ms`)
  }
)

test('outage: a refused connection, a dropped Redis and a locked SQLite file are 503s; bugs stay 500s', async (t) => {
  const closed = net.createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const closedPort = (closed.address() as net.AddressInfo).port
  await new Promise<void>((resolve) => closed.close(() => resolve()))

  const refused = await new Promise<Error>((resolve) => net.connect(closedPort, '127.0.0.1').on('error', resolve))
  const redis = new Redis({ port: closedPort, host: '127.0.0.1', maxRetriesPerRequest: 1, retryStrategy: () => 50, lazyConnect: true })
  redis.on('error', () => {})
  t.after(() => redis.disconnect())
  const redisDown = await redis.get('x').then(
    () => new Error('unexpected'),
    (error: Error) => error
  )
  assert.equal(redisDown.name, 'MaxRetriesPerRequestError')

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-outage-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const holder = new BetterSqlite3(path.join(dir, 'db.sqlite'))
  const waiter = new BetterSqlite3(path.join(dir, 'db.sqlite'), { timeout: 0 })
  t.after(() => {
    holder.close()
    waiter.close()
  })
  holder.exec('create table t (x integer)')
  holder.exec('begin immediate')
  let locked: unknown
  try {
    waiter.exec('insert into t values (1)')
  } catch (error) {
    locked = error
  }
  holder.exec('rollback')

  const errors: Record<string, unknown> = {
    refused,
    redisDown,
    locked,
    refusedAsCause: new Error('query failed', { cause: refused }),
    adminShutdown: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' }),
    connectionException: Object.assign(new Error('connection failure'), { code: '08006', severity: 'FATAL' }),
    poolTimeout: new Error('timeout exceeded when trying to connect'),
    terminated: new Error('Connection terminated unexpectedly')
  }
  const app = createServer({ logger: silent, errorFormatter: shape })
  app.get('/fail/:name', async (request) => {
    throw errors[(request.params as { name: string }).name] ?? new TypeError('a bug')
  })
  t.after(() => app.close())
  for (const name of Object.keys(errors)) {
    assert.ok(isDependencyUnavailable(errors[name]), name)
    const response = await app.inject({ url: `/fail/${name}` })
    assert.equal(response.statusCode, 503, name)
    assert.equal(response.headers['retry-after'], '5', name)
    assert.equal(response.json<{ code: string }>().code, 'SERVICE_UNAVAILABLE', name)
  }
  const bug = await app.inject({ url: '/fail/none' })
  assert.equal(bug.statusCode, 500)
  assert.equal(bug.headers['retry-after'], undefined)
  for (const notAnOutage of [
    new TypeError('x'),
    Object.assign(new Error('dup'), { code: '23505' }),
    { code: 'SQLITE_CONSTRAINT_UNIQUE' },
    'ECONNREFUSED',
    null
  ]) {
    assert.equal(isDependencyUnavailable(notAnOutage), false)
  }
})
