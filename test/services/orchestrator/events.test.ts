import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createTestDatabase, type TestDatabase } from '../../helpers/db.js'
import { orchestratorMigrations } from '../../../src/services/orchestrator/migrations/index.js'
import type { OrchestratorDb } from '../../../src/services/orchestrator/state/db.js'
import { createEventsRepository } from '../../../src/services/orchestrator/state/events.repository.js'
import { createProjectsRepository } from '../../../src/services/orchestrator/state/projects.repository.js'

let database: TestDatabase
let db: OrchestratorDb
before(async () => {
  database = await createTestDatabase([orchestratorMigrations])
  db = database.db as OrchestratorDb
})
after(() => database.close())

test('projects: one id per root, also under concurrent registration', async () => {
  const projects = createProjectsRepository(db, () => new Date())
  const ids = await Promise.all(Array.from({ length: 10 }, () => projects.ensure('/tmp/p-concurrent')))
  assert.equal(new Set(ids).size, 1)
  assert.notEqual(await projects.ensure('/tmp/p-other'), ids[0])
})

test('events: dense per-project sequence under 50 concurrent appends, replay after a sequence', async () => {
  const projects = createProjectsRepository(db, () => new Date())
  const events = createEventsRepository(db, () => new Date())
  const a = await projects.ensure('/tmp/p-events-a')
  const b = await projects.ensure('/tmp/p-events-b')
  await Promise.all(Array.from({ length: 50 }, (_, i) => events.append(i % 2 ? a : b, { type: 'cleanup', data: { removed: i, kept: 0 } })))
  const seqA = (await events.readAfter(a, 0, 100)).map((e) => e.seq)
  const seqB = (await events.readAfter(b, 0, 100)).map((e) => e.seq)
  assert.deepEqual(
    seqA,
    Array.from({ length: 25 }, (_, i) => i + 1)
  )
  assert.deepEqual(
    seqB,
    Array.from({ length: 25 }, (_, i) => i + 1)
  )
  assert.equal(await events.latestSeq(a), 25)
  const tail = await events.readAfter(a, 20, 100)
  assert.deepEqual(
    tail.map((e) => e.seq),
    [21, 22, 23, 24, 25]
  )
  assert.equal(tail[0]?.type === 'cleanup' && typeof tail[0].data.removed, 'number')
  assert.equal(await events.latestSeq(await projects.ensure('/tmp/p-empty')), 0)
})
