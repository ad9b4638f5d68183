import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { localScope, note, q, v1 } from './helpers.js'

const idsOf = (view: any): number[] =>
  view.state === 'ABSENT' ? [] : [...view.entries.map((e: any) => e.entry.id), ...view.deferred.map((d: any) => d.candidate.id)].sort()

// The full-text index (FTS5 kept by triggers on SQLite, a generated tsvector on PostgreSQL) answers every ranked read;
// a write that it missed would leave a search finding a row by words it no longer has, or not finding a new one.
test('the search index follows inserts, updates, soft and hard deletes of entries', async () => {
  const orch = await startOrchestrator()
  const scope = await localScope(orch)
  const memory = orch.repositories.memory
  const search = (words: string) => v1(orch, `/api/memory/search?${q({ v: '1', q: words })}`).then(idsOf)

  assert.deepEqual(await search('quokka'), [])
  const first = await memory.upsert(scope, 'notes/a.md', note('quokka habitat', 'rottnest island'))
  const second = await memory.record(scope, note('numbat diet', 'termites, quokka neighbours'))
  assert.deepEqual(await search('quokka'), [first.id, second.id].sort())
  assert.deepEqual(await search('termites'), [second.id])

  // Rewritten under its source key: found by its new words only, under its own id.
  const rewritten = await memory.upsert(scope, 'notes/a.md', note('bilby burrows', 'arid zone'))
  assert.equal(rewritten.id, first.id)
  assert.deepEqual(await search('quokka'), [second.id])
  assert.deepEqual(await search('bilby arid'), [first.id])
  assert.deepEqual(await search('rottnest'), [])

  // The memory has no delete endpoint; a row marked deleted or removed (by a cleanup, another process) is not found.
  await sql`update orch_memory_entries set deleted_at = ${new Date().toISOString()} where id = ${second.id}`.execute(orch.database.db)
  assert.deepEqual(await search('quokka termites'), [])
  await sql`delete from orch_memory_entries where id = ${first.id}`.execute(orch.database.db)
  assert.deepEqual(await search('bilby'), [])
  const third = await memory.record(scope, note('bilby again', 'a new burrow'))
  assert.deepEqual(await search('bilby'), [third.id])
})
