import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import type { MemoryScopeKey } from '../../../../src/services/orchestrator/state/memory.repository.js'
import {
  entryJsonOf,
  rankedPageOf,
  renderEntry,
  type RankedHit,
  type RankedPage
} from '../../../../src/services/orchestrator/modules/memory/page.js'
import { createIndexedSearch, type IndexedSearch } from '../../../../src/services/orchestrator/modules/memory/indexed-search.js'
import { repositoriesForTests, searchFilter } from './helpers.js'

const entryOf = (hit: RankedHit) => JSON.parse(entryJsonOf(hit.rendered).toString()) as { title: string }

const testDb = repositoriesForTests()
const postgres = Boolean(process.env.DATABASE_URL)

/** A small deterministic generator, so a failing query can be replayed. */
function random(seed: number) {
  let state = seed
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return state / 2 ** 32
  }
}

const VOCABULARY = ['alpha', 'beta', 'gamma', 'Delta', 'café', 'naïve', 'über', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'x1', 'x2', 'x3']
const filterOf = searchFilter

async function seed(scope: MemoryScopeKey, count: number, next: () => number) {
  const pick = () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]!
  const words = (n: number) => Array.from({ length: n }, pick).join(' ')
  for (let i = 0; i < count; i++) {
    await testDb.repos.memory.record(scope, {
      type: ['memory', 'decision', 'debt'][i % 3]!,
      source: 'system',
      title: words(1 + Math.floor(next() * 3)),
      content: `${words(3 + Math.floor(next() * 30))}\n${words(2)}`,
      summary: i % 4 === 0 ? null : words(4),
      tags: [pick()],
      status: i % 5 === 0 ? 'resolved' : 'active',
      sprintNum: i % 7
    })
  }
}

/** The first term search of a scope builds its index and answers from it. */
async function ready(indexed: IndexedSearch, scope: MemoryScopeKey): Promise<void> {
  assert.ok(await indexed.search(scope, filterOf(['alpha']), 0, 1, () => testDb.repos.memory.version(scope)), 'the index answered')
}

/** Ids in rank order, ties (equal relevance to 1e-9) broken by id descending as both rankings do. */
const ranking = (page: RankedPage) =>
  page.hits
    .map((hit) => ({ id: hit.rendered.id, relevance: Math.round(hit.relevance * 1e9) / 1e9 }))
    .sort((a, b) => b.relevance - a.relevance || b.id - a.id)

test('the term index ranks as the SQL ranking does: same entries for every query and filter, in bm25 order on SQLite', async () => {
  const scope = { projectId: await testDb.repos.projects.ensure('/tmp/term-index-parity'), tenantId: 'local' }
  const next = random(20261127)
  await seed(scope, 240, next)
  const indexed = createIndexedSearch(testDb.repos.memory, { batch: 50 })
  await ready(indexed, scope)
  const version = () => testDb.repos.memory.version(scope)
  for (let i = 0; i < 150; i++) {
    // Distinct words, as the query parser hands them over (an upper-case one checks the folding).
    const words = new Set(
      Array.from({ length: 1 + Math.floor(next() * 3) }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]!.toLowerCase())
    )
    const filter = filterOf(
      [...words].map((term) => (next() < 0.2 ? term.toUpperCase() : term)),
      {
        mode: next() < 0.3 ? 'and' : 'or',
        types: next() < 0.3 ? ['decision'] : [],
        statuses: next() < 0.2 ? ['active'] : [],
        sprintMin: next() < 0.2 ? 3 : null
      }
    )
    const offset = next() < 0.3 ? Math.floor(next() * 20) : 0
    const size = 500
    const fromIndex = await indexed.search(scope, filter, offset, size, version)
    const fromSql = rankedPageOf(await testDb.repos.memory.search(scope, filter, offset, size))
    assert.ok(fromIndex, 'the index answered')
    const what = JSON.stringify({ filter, offset })
    if (postgres) {
      // PostgreSQL ranks with ts_rank_cd: the same entries match, in its own order.
      if (offset === 0)
        assert.deepEqual(fromIndex.hits.map((h) => h.rendered.id).sort(), fromSql.hits.map((h) => h.rendered.id).sort(), what)
    } else {
      assert.deepEqual(ranking(fromIndex), ranking(fromSql), what)
    }
    assert.equal(fromIndex.snapshot, fromSql.snapshot, what)
    // What the page shows of each hit (kept renderings included) is what its row gives now.
    for (const hit of fromIndex.hits) assert.deepEqual(hit.rendered, renderEntry((await testDb.repos.memory.get(scope, hit.rendered.id))!))
  }
})

test('the term index follows writes made after it was built: inserts, rewrites, hand-made deletes', async () => {
  const scope = { projectId: await testDb.repos.projects.ensure('/tmp/term-index-writes'), tenantId: 'local' }
  await seed(scope, 30, random(7))
  const indexed = createIndexedSearch(testDb.repos.memory)
  await ready(indexed, scope)
  const version = () => testDb.repos.memory.version(scope)
  const ids = async (...terms: string[]) => {
    const page = await indexed.search(scope, filterOf(terms), 0, 100, version)
    const sqlPage = await testDb.repos.memory.search(scope, filterOf(terms), 0, 100)
    const found = (page ? page.hits.map((hit) => hit.rendered.id) : sqlPage.hits.map((hit) => hit.id)).sort((a, b) => a - b)
    assert.deepEqual(
      found,
      sqlPage.hits.map((hit) => hit.id).sort((a, b) => a - b),
      `index and SQL agree on ${terms.join(' ')}`
    )
    return found
  }

  assert.deepEqual(await ids('quokka'), [])
  const first = await testDb.repos.memory.upsert(scope, 'notes/a.md', {
    type: 'memory',
    source: 'user',
    title: 'quokka habitat',
    content: 'rottnest'
  })
  const second = await testDb.repos.memory.record(scope, { type: 'memory', source: 'user', title: 'numbat', content: 'termites quokka' })
  assert.deepEqual(await ids('quokka'), [first.id, second.id])
  assert.ok(await indexed.search(scope, filterOf(['quokka']), 0, 10, version), 'answered by the index, not the SQL fallback')

  await testDb.repos.memory.upsert(scope, 'notes/a.md', { type: 'memory', source: 'user', title: 'bilby burrows', content: 'arid zone' })
  assert.deepEqual(await ids('quokka'), [second.id])
  assert.deepEqual(await ids('rottnest'), [])
  assert.deepEqual(await ids('bilby', 'arid'), [first.id])

  // Not through the repository (no new revision): the index notices when it ranks such a row.
  await sql`update orch_memory_entries set deleted_at = ${new Date().toISOString()} where id = ${second.id}`.execute(testDb.database.db)
  assert.deepEqual(await ids('termites'), [])
  await sql`delete from orch_memory_entries where id = ${first.id}`.execute(testDb.database.db)
  assert.deepEqual(await ids('bilby'), [])
  await ready(indexed, scope)
  const third = await testDb.repos.memory.record(scope, { type: 'memory', source: 'user', title: 'bilby again', content: 'a new burrow' })
  assert.deepEqual(await ids('bilby'), [third.id])
})

test('a scope larger than the index may hold (entries or words) is never indexed: its searches stay in SQL', async () => {
  const scope = { projectId: await testDb.repos.projects.ensure('/tmp/term-index-large'), tenantId: 'local' }
  await seed(scope, 40, random(11))
  const version = () => testDb.repos.memory.version(scope)
  for (const limits of [{ maxEntries: 25 }, { maxPostings: 100 }]) {
    const indexed = createIndexedSearch(testDb.repos.memory, { ...limits, batch: 10 })
    for (let i = 0; i < 5; i++)
      assert.equal(await indexed.search(scope, filterOf(['alpha']), 0, 10, version), undefined, JSON.stringify(limits))
  }
  // Within both limits the same scope is indexed.
  assert.ok(
    await createIndexedSearch(testDb.repos.memory, { maxEntries: 40, maxPostings: 1000 }).search(scope, filterOf(['alpha']), 0, 10, version)
  )
})

test('concurrent searches while entries are written: every page is a consistent ranking of one snapshot', async () => {
  const scope = { projectId: await testDb.repos.projects.ensure('/tmp/term-index-concurrent'), tenantId: 'local' }
  await seed(scope, 60, random(3))
  const indexed = createIndexedSearch(testDb.repos.memory, { batch: 7 })
  await ready(indexed, scope)
  const version = () => testDb.repos.memory.version(scope)
  const writes = (async () => {
    for (let i = 0; i < 40; i++)
      await testDb.repos.memory.record(scope, { type: 'memory', source: 'user', title: `alpha note ${i}`, content: 'alpha' })
  })()
  const pages = await Promise.all(Array.from({ length: 60 }, () => indexed.search(scope, filterOf(['alpha']), 0, 500, version)))
  await writes
  for (const page of pages) {
    if (!page) continue
    for (const hit of page.hits) assert.ok(hit.rendered.revision <= page.snapshot, 'no hit newer than the page snapshot')
    const newest = page.hits.filter((hit) => entryOf(hit).title.startsWith('alpha note')).length
    const written = (await testDb.repos.memory.search(scope, filterOf(['note']), 0, 500)).hits.filter(
      (hit) => hit.revision <= page.snapshot
    ).length
    assert.equal(newest, written, 'every note written up to the snapshot is on the page')
  }
  const last = await indexed.search(scope, filterOf(['alpha']), 0, 500, version)
  assert.equal(last!.hits.filter((hit) => entryOf(hit).title.startsWith('alpha note')).length, 40)
})
