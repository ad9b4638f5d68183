import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import type { MemoryRepository, MemoryScopeKey } from '../../../../src/services/orchestrator/state/memory.repository.js'
import { createIndexedSearch } from '../../../../src/services/orchestrator/modules/memory/indexed-search.js'
import { createMemoryReadService } from '../../../../src/services/orchestrator/modules/memory/memory-read.service.js'
import { createTokenSealer } from '../../../../src/services/orchestrator/modules/memory/opaque-token.js'
import { entryJsonOf, renderEntry } from '../../../../src/services/orchestrator/modules/memory/page.js'
import { repositoriesForTests, searchFilter } from './helpers.js'

const testDb = repositoriesForTests()

/** The real repository, counting the rows its page reads ask for. */
function counting(repository: MemoryRepository) {
  const reads = { statements: 0, rows: 0 }
  const wrapped: MemoryRepository = {
    ...repository,
    async getMany(scope, ids) {
      reads.statements++
      reads.rows += ids.length
      return repository.getMany(scope, ids)
    }
  }
  return { repository: wrapped, reads }
}

async function seed(scope: MemoryScopeKey, count: number) {
  for (let i = 0; i < count; i++)
    await testDb.repos.memory.record(scope, {
      type: 'memory',
      source: 'user',
      title: `lantern ${i}`,
      content: `lantern harbour ${i % 3 === 0 ? 'fog' : 'clear'}\n${'line\n'.repeat(i % 4)}`,
      tags: ['coast']
    })
}

const newScope = async (name: string) => ({
  projectId: await testDb.repos.projects.ensure(`/tmp/kept-renderings-${name}`),
  tenantId: 'local'
})

test('a page of kept renderings reads no row, and every page is what the rows give now', async () => {
  const scope = await newScope('reads')
  await seed(scope, 30)
  const { repository, reads } = counting(testDb.repos.memory)
  const indexed = createIndexedSearch(repository)
  const version = () => testDb.repos.memory.version(scope)
  const first = await indexed.search(scope, searchFilter(['lantern']), 0, 30, version)
  assert.ok(first)
  for (const hit of first.hits) assert.equal(hit.rendered.id > 0, true)
  const afterFirst = { ...reads }
  const again = await indexed.search(scope, searchFilter(['harbour', 'fog']), 0, 30, version)
  assert.ok(again)
  for (const hit of again.hits) assert.deepEqual(hit.rendered, renderEntry((await testDb.repos.memory.get(scope, hit.rendered.id))!))
  assert.deepEqual(reads, afterFirst, 'no row read for a page of kept renderings')
})

test('a rewrite through the repository and a write by hand both show on the next page (the kept rendering is not served)', async () => {
  const scope = await newScope('writes')
  await seed(scope, 12)
  const indexed = createIndexedSearch(testDb.repos.memory)
  const version = () => testDb.repos.memory.version(scope)
  const page = async () => (await indexed.search(scope, searchFilter(['lantern']), 0, 50, version))!
  const contentOf = async (id: number) => {
    const rendered = (await page()).hits.find((hit) => hit.rendered.id === id)?.rendered
    return rendered && (JSON.parse(entryJsonOf(rendered).toString()) as { content: string }).content
  }
  const lantern = (content: string) => ({ type: 'memory', source: 'user', title: 'lantern target', content })
  const target = (await testDb.repos.memory.upsert(scope, 'notes/target.md', lantern('lantern original'))).id
  assert.equal(await contentOf(target), 'lantern original')
  const before = (await testDb.repos.memory.get(scope, target))!
  await testDb.repos.memory.upsert(scope, 'notes/target.md', lantern('lantern rewritten through the repository'))
  assert.equal(await contentOf(target), 'lantern rewritten through the repository')
  assert.notEqual((await testDb.repos.memory.get(scope, target))!.revision, before.revision)

  // No new revision: only the trigger-kept write count tells, and the kept renderings are dropped.
  const later = new Date(Date.now() + 60_000).toISOString()
  await sql`update orch_memory_entries set content = ${'lantern edited by hand'}, updated_at = ${later} where id = ${target}`.execute(
    testDb.database.db
  )
  assert.equal(await contentOf(target), 'lantern edited by hand')
  // Even a hand edit that keeps the update time.
  await sql`update orch_memory_entries set content = ${'lantern edited again'} where id = ${target}`.execute(testDb.database.db)
  assert.equal(await contentOf(target), 'lantern edited again')
})

test('renderings stay within their budget; a scope that would not fit keeps none and still answers the same pages', async () => {
  const scope = await newScope('budget')
  await seed(scope, 40)
  const version = () => testDb.repos.memory.version(scope)
  const reference = createIndexedSearch(testDb.repos.memory, { maxRenderedChars: 0 })
  const ids = async (search: ReturnType<typeof createIndexedSearch>, terms: string[]) =>
    (await search.search(scope, searchFilter(terms), 0, 40, version))!.hits.map((hit) => [
      hit.rendered.id,
      entryJsonOf(hit.rendered).toString()
    ])

  // ~1 KB per kept rendering: 40 entries need ~40,000 characters.
  for (const maxRenderedChars of [0, 5_000, 1_000_000]) {
    const { repository, reads } = counting(testDb.repos.memory)
    const small = createIndexedSearch(repository, { maxRenderedChars })
    for (const terms of [['lantern'], ['fog'], ['clear', 'harbour'], ['lantern']])
      assert.deepEqual(await ids(small, terms), await ids(reference, terms), `${maxRenderedChars}: ${terms.join(' ')}`)
    const rowsRead = reads.rows
    await ids(small, ['lantern'])
    if (maxRenderedChars === 1_000_000) assert.equal(reads.rows, rowsRead, 'a scope that fits is served from kept renderings')
    else assert.equal(reads.rows, rowsRead + 40, `${maxRenderedChars}: every row read again`)
  }
})

test('the read service answers the same bodies with and without kept renderings, over many different queries', async () => {
  const scope = await newScope('bodies')
  await seed(scope, 60)
  const localScope = { kind: 'local-project' as const, ...scope }
  const sealer = createTokenSealer(Buffer.alloc(32, 9))
  const keeping = createMemoryReadService({ repository: testDb.repos.memory, sealer })
  const fresh = createMemoryReadService({ repository: testDb.repos.memory, sealer, termIndex: { maxRenderedChars: 0 } })
  const queries = ['lantern', 'fog', 'clear', 'harbour fog', 'lantern clear', 'coast', 'line']
  for (let round = 0; round < 3; round++) {
    for (const query of queries) {
      const kept = keeping.bodyText(await keeping.search(localScope, 'api', { v: '1', q: query, limit: '5' }))
      const made = fresh.bodyText(await fresh.search(localScope, 'api', { v: '1', q: query, limit: '5' }))
      assert.equal(kept, made, `${round}: ${query}`)
    }
    await testDb.repos.memory.record(scope, { type: 'memory', source: 'user', title: `lantern new ${round}`, content: 'harbour fog line' })
  }
})

test('AVAILABLE views share one set of list getters, and the lists they read back are the JSON of the body', async () => {
  const scope = await newScope('getters')
  await seed(scope, 12)
  const localScope = { kind: 'local-project' as const, ...scope }
  const sealer = createTokenSealer(Buffer.alloc(32, 4))
  const reads = createMemoryReadService({ repository: testDb.repos.memory, sealer, cachedPages: 8 })
  const views = []
  for (const q of ['lantern', 'fog', 'harbour clear']) views.push(await reads.search(localScope, 'api', { v: '1', q, limit: '2' }))
  for (const view of views) {
    assert.equal(view.state, 'AVAILABLE')
    // Getters made per view would give each view a hidden class of its own (see view-body.ts).
    for (const list of ['candidates', 'entries', 'deferred'])
      assert.equal(Object.getOwnPropertyDescriptor(view, list)!.get, Object.getOwnPropertyDescriptor(views[0], list)!.get, list)
    assert.deepEqual(Object.keys(view), Object.keys(JSON.parse(reads.bodyText(view)).view))
    assert.deepEqual(JSON.parse(JSON.stringify(view)), JSON.parse(reads.bodyText(view)).view)
  }
})

test('a detail reference names the entry, not the query: kept with its rendering, checked on every detail read', async () => {
  const scope = await newScope('refs')
  await seed(scope, 9)
  const localScope = { kind: 'local-project' as const, ...scope }
  const reads = createMemoryReadService({
    repository: testDb.repos.memory,
    sealer: createTokenSealer(Buffer.alloc(32, 5)),
    limits: { maxEntries: 1, maxCandidates: 20, maxBytes: 32_768, maxLines: 200 }
  })
  const refsOf = async (query: string, consumer: 'api' | 'mcp' = 'api') => {
    const view = await reads.search(localScope, consumer, { v: '1', q: query })
    assert.equal(view.state, 'AVAILABLE')
    return new Map(view.deferred.map((deferred) => [deferred.candidate.id, deferred.detailRef]))
  }
  // Two different queries defer the same entries (past the one entry a page holds) with the same references.
  const byLantern = await refsOf('lantern')
  const byHarbour = await refsOf('harbour lantern')
  const shared = [...byLantern.keys()].filter((id) => byHarbour.has(id))
  assert.ok(shared.length >= 5, `entries deferred by both queries: ${shared.length}`)
  for (const id of shared) assert.equal(byHarbour.get(id), byLantern.get(id), `entry ${id}`)

  const [id, ref] = [shared[0]!, byLantern.get(shared[0]!)!]
  const detail = await reads.detail(localScope, 'api', '1', ref)
  assert.deepEqual([detail.state, detail.state === 'AVAILABLE' && detail.entry.id], ['AVAILABLE', id])
  // Another consumer gets its own reference, and neither opens for the other.
  const mcpRef = (await refsOf('lantern', 'mcp')).get(id)!
  assert.notEqual(mcpRef, ref)
  assert.equal((await reads.detail(localScope, 'mcp', '1', ref)).state, 'HOLD')
  assert.equal((await reads.detail(localScope, 'mcp', '1', mcpRef)).state, 'AVAILABLE')
  // Another tenant's scope does not open it.
  const otherTenant = { ...localScope, kind: 'tenant' as const, tenantId: 'acme' }
  const foreign = await reads.detail(otherTenant, 'api', '1', ref)
  assert.deepEqual([foreign.state, foreign.state === 'HOLD' && foreign.reasonCode], ['HOLD', 'DETAIL_REFERENCE_INVALID'])

  // Once the entry changes, its old reference says so and pages carry a new one.
  await sql`update orch_memory_entries set content = ${'lantern harbour rewritten'}, revision = revision + 1000 where id = ${id}`.execute(
    testDb.database.db
  )
  const changed = await reads.detail(localScope, 'api', '1', ref)
  assert.deepEqual([changed.state, changed.state === 'HOLD' && changed.reasonCode], ['HOLD', 'DETAIL_CHANGED'])
  const renewed = (await refsOf('lantern')).get(id)
  assert.ok(renewed !== undefined && renewed !== ref)
  assert.equal((await reads.detail(localScope, 'api', '1', renewed)).state, 'AVAILABLE')
})

test('a row read for a hit past the end of a page is kept too: no later query reads it again', async () => {
  const scope = await newScope('past-the-end')
  await seed(scope, 30)
  const localScope = { kind: 'local-project' as const, ...scope }
  const { repository, reads } = counting(testDb.repos.memory)
  // A page ends at its byte budget after a few hits, long before the ~30 hits of its window whose rows were read.
  const service = createMemoryReadService({
    repository,
    sealer: createTokenSealer(Buffer.alloc(32, 3)),
    limits: { maxEntries: 20, maxCandidates: 128, maxBytes: 3_000, maxLines: 200 }
  })
  const used = async (query: string) => {
    const view = await service.search(localScope, 'api', { v: '1', q: query })
    assert.equal(view.state, 'AVAILABLE')
    assert.ok(view.state === 'AVAILABLE' && view.candidates.length < 30, 'the page ends before its hits')
    return view.state === 'AVAILABLE' ? view.candidates.map((candidate) => candidate.id) : []
  }
  await used('lantern')
  await used('lantern harbour')
  const afterSecond = reads.rows
  const third = await used('harbour clear lantern')
  assert.equal(reads.rows, afterSecond, 'no row read: every row read before was kept')
  // And the page is still the one the rows give.
  const fresh = createMemoryReadService({
    repository: testDb.repos.memory,
    sealer: createTokenSealer(Buffer.alloc(32, 3)),
    limits: { maxEntries: 20, maxCandidates: 128, maxBytes: 3_000, maxLines: 200 },
    termIndex: { maxRenderedChars: 0 }
  })
  const view = await fresh.search(localScope, 'api', { v: '1', q: 'harbour clear lantern' })
  assert.deepEqual(view.state === 'AVAILABLE' ? view.candidates.map((candidate) => candidate.id) : [], third)
})

// Last in this file: it empties the table.
test('emptying the table by hand (TRUNCATE on PostgreSQL) leaves no kept entry on the next page', async () => {
  const scope = await newScope('emptied')
  await seed(scope, 6)
  const indexed = createIndexedSearch(testDb.repos.memory)
  const version = () => testDb.repos.memory.version(scope)
  const found = async () => {
    const page = await indexed.search(scope, searchFilter(['lantern']), 0, 50, version)
    assert.ok(page, 'answered by the index')
    // Rendered, as a page does with the hits it shows: from now on they are kept.
    return page.hits.filter((hit) => hit.rendered.id > 0).length
  }
  assert.equal(await found(), 6)
  assert.equal(await found(), 6)
  const emptied = testDb.database.dialect === 'postgres' ? sql`truncate orch_memory_entries` : sql`delete from orch_memory_entries`
  await emptied.execute(testDb.database.db)
  assert.equal(await found(), 0)
})
