import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { test } from 'node:test'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { note, q, seedEntries } from './helpers.js'

test('legacy search keeps its array shape; held reads are 409 and failed ones 503, never an empty array', async () => {
  const orch = await startOrchestrator()
  const ids = await seedEntries(orch, [
    note('lint rules', 'eslint flat config'),
    note('lint speed', 'cache the lint results'),
    note('huge manual', 'manual '.repeat(9000))
  ])
  const ok = await orch.call('GET', `/api/memory/search?${q({ q: 'lint' })}`)
  assert.equal(ok.status, 200)
  assert.ok(Array.isArray(ok.json))
  assert.deepEqual(
    ok.json.map((item: any) => Object.keys(item).sort()),
    [
      ['entry', 'relevance'],
      ['entry', 'relevance']
    ]
  )
  assert.deepEqual(ok.json.map((item: any) => item.entry.id).sort(), [ids[0], ids[1]].sort())
  assert.deepEqual((await orch.call('GET', `/api/memory/search?${q({ q: 'nomatch' })}`)).json, [])

  // The only hit is over the budget: not "no match" but a held read.
  const held = await orch.call('GET', `/api/memory/search?${q({ q: 'manual' })}`)
  assert.equal(held.status, 409)
  assert.equal(held.json.error, 'RENDER_LIMIT_EXCEEDED')
  assert.equal(held.json.view.state, 'HOLD')

  const projection = await orch.call('GET', '/api/memory')
  assert.equal(projection.status, 200)
  assert.equal(projection.json.schemaVersion, 1)
  assert.equal(projection.json.view.state, 'AVAILABLE')
  assert.match(projection.json.content, /^# Memory\n\n## lint speed\n\ncache the lint results\n\n## lint rules\n\neslint flat config/)
  assert.match(
    projection.json.content,
    /## Deferred[\s\S]*#\d+ huge manual \(BYTE_LIMIT\): GET \/api\/memory\/detail\?v=1&ref=memory-read-detail-v1\./
  )

  // The store breaks: v1 answers HOLD QUERY_FAILED (200), legacy a typed 503, the projection a HOLD text.
  await sql`alter table orch_memory_entries rename to orch_memory_entries_gone`.execute(orch.database.db)
  const failed = await orch.call('GET', `/api/memory/search?${q({ q: 'lint' })}`)
  assert.deepEqual([failed.status, failed.json], [503, { error: 'QUERY_FAILED' }])
  const v1 = await orch.call('GET', `/api/memory/search?${q({ v: '1', q: 'lint' })}`)
  assert.deepEqual([v1.status, v1.json.view.state, v1.json.view.reasonCode], [200, 'HOLD', 'QUERY_FAILED'])
  const projectionFailed = await orch.call('GET', '/api/memory')
  assert.deepEqual([projectionFailed.status, projectionFailed.json.content], [200, 'Memory is on hold (QUERY_FAILED).'])
})
