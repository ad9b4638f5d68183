import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { writeCountOf } from '../../../../src/services/orchestrator/state/memory-rows.js'
import { note, repositoriesForTests } from './helpers.js'

const testDb = repositoriesForTests()

// The version's write count (triggers: 0009 on SQLite for the whole table, 0021 on PostgreSQL per scope) is what lets a
// search serve kept renderings without reading rows: a write it missed would leave a stale entry on pages.
test('concurrent writers of two scopes: every write lands with a dense revision and is counted exactly once', async () => {
  const scopes = [
    { projectId: await testDb.repos.projects.ensure('/tmp/write-counter-a'), tenantId: 'local' },
    { projectId: await testDb.repos.projects.ensure('/tmp/write-counter-b'), tenantId: 'local' }
  ]
  const writes = async () => Promise.all(scopes.map(async (scope) => writeCountOf(await testDb.repos.memory.version(scope))))
  const before = await writes()
  const perScope = 24
  await Promise.all(
    scopes.flatMap((scope) =>
      Array.from({ length: perScope }, (_, i) =>
        // Half new entries, half rewrites under 4 source keys (an update of an existing row once the key exists).
        i % 2 === 0
          ? testDb.repos.memory.record(scope, note(`entry ${i}`, 'racing'))
          : testDb.repos.memory.upsert(scope, `notes/${i % 4}.md`, note(`rewrite ${i}`, 'racing'))
      )
    )
  )
  for (const scope of scopes) {
    const revisions = (
      await sql<{ revision: number }>`select revision from orch_memory_entries
        where project_id = ${scope.projectId} and tenant_id = ${scope.tenantId} order by revision`.execute(testDb.database.db)
    ).rows.map((row) => Number(row.revision))
    // 12 records and 2 rows under source keys (each rewrite takes the next revision, so the highest is the last write).
    assert.equal(revisions.length, 12 + 2)
    assert.equal(revisions.at(-1), perScope)
    assert.equal(new Set(revisions).size, revisions.length)
  }
  const after = await writes()
  if (testDb.database.dialect === 'postgres') assert.deepEqual(after, [before[0]! + perScope, before[1]! + perScope])
  else assert.deepEqual(after, [before[0]! + 2 * perScope, before[1]! + 2 * perScope], 'one counter for the whole table')

  // By hand: an update keeping the revision and a delete are counted too, in their own scope.
  const [first] = (
    await sql<{ id: number }>`select id from orch_memory_entries where project_id = ${scopes[0]!.projectId} order by id limit 1`.execute(
      testDb.database.db
    )
  ).rows
  await sql`update orch_memory_entries set content = ${'by hand'} where id = ${first!.id}`.execute(testDb.database.db)
  await sql`delete from orch_memory_entries where id = ${first!.id}`.execute(testDb.database.db)
  const byHand = await writes()
  assert.equal(byHand[0], after[0]! + 2)
  assert.equal(byHand[1], testDb.database.dialect === 'postgres' ? after[1] : after[1]! + 2)
})
