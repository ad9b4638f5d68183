import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createTermIndex, type RankedId, type TermIndex } from '../../../../src/services/orchestrator/modules/memory/term-index.js'
import type { IndexedEntry } from '../../../../src/services/orchestrator/state/memory.repository.js'
import { searchFilter } from './helpers.js'

/** A small deterministic generator, so a failing case can be replayed. */
function random(seed: number) {
  let state = seed
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return state / 2 ** 32
  }
}

/** Ranked ids with the revisions the index holds, without their slots (two indexes of the same entries may place them apart). */
const withoutSlots = (ranked: RankedId[], index: TermIndex) =>
  ranked.map(({ id, relevance }) => ({ id, relevance, revision: index.revisionOf(id) }))

const words = Array.from({ length: 400 }, (_, i) => `w${i}`)

function entryOf(id: number, revision: number, next: () => number): IndexedEntry {
  const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(next() * next() * words.length)]).join(' ')
  return {
    id,
    revision,
    title: text(3),
    summary: next() < 0.5 ? null : text(5),
    content: text(10 + Math.floor(next() * 30)),
    tags: text(1),
    type: next() < 0.5 ? 'memory' : 'decision',
    status: 'active',
    sprint_num: Math.floor(next() * 5),
    deleted_at: next() < 0.05 ? '2026-11-28T00:00:00.000Z' : null
  }
}

test('an index that took every rewrite of its entries (postings moved, runs compacted) ranks as one built from the last revisions', () => {
  const next = random(7)
  const changed = createTermIndex()
  const latest = new Map<number, IndexedEntry>()
  let revision = 0
  // 300 entries of ~25 distinct words, each rewritten 4 times in random order: the runs of replaced terms outgrow
  // the live ones many times over, and every term's postings lose and gain entries in between.
  for (let round = 0; round < 5; round++) {
    const ids = Array.from({ length: 300 }, (_, i) => i + 1).sort(() => next() - 0.5)
    for (const id of ids) {
      const entry = entryOf(id, ++revision, next)
      changed.put(entry)
      latest.set(id, entry)
    }
  }
  const fresh = createTermIndex()
  for (const entry of [...latest.values()].sort((a, b) => a.revision - b.revision)) fresh.put(entry)

  assert.equal(changed.postings(), fresh.postings())
  assert.equal(changed.size(), fresh.size())
  for (let q = 0; q < 200; q++) {
    const terms = [words[q % 50]!, words[(q * 7) % words.length]!]
    for (const mode of ['or', 'and'] as const) {
      const filter = searchFilter(terms, { mode })
      assert.deepEqual(
        withoutSlots(changed.rank(filter, 40), changed),
        withoutSlots(fresh.rank(filter, 40), fresh),
        `${terms.join(' ')} (${mode})`
      )
    }
  }
})

/** bm25 as FTS5 defines it (k1 1.2, b 0.75, idf floor 1e-6, column weights 8/4/1/4), summed term by term in query order. */
function bruteForceRank(entries: IndexedEntry[], terms: string[], mode: 'or' | 'and', types: string[], limit: number) {
  const weights = [8, 4, 1, 4]
  const live = entries.filter((entry) => entry.deleted_at === null)
  const tokensOf = (entry: IndexedEntry) =>
    [entry.title, entry.summary ?? '', entry.content, entry.tags].map((text) => [
      ...(text.toLowerCase().match(/[\p{L}\p{N}\p{Co}]+/gu) ?? [])
    ])
  const lengths = new Map(live.map((entry) => [entry.id, tokensOf(entry).flat().length]))
  const averageLength = [...lengths.values()].reduce((a, b) => a + b, 0) / live.length
  const scores = new Map<number, { score: number; matched: number }>()
  for (const term of terms) {
    const containing = live.filter((entry) => tokensOf(entry).some((column) => column.includes(term)))
    const n = containing.length
    const idf = Math.max(1e-6, Math.log((live.length - n + 0.5) / (n + 0.5)))
    for (const entry of containing) {
      const f = tokensOf(entry).reduce((sum, column, c) => sum + column.filter((word) => word === term).length * weights[c]!, 0)
      const share = (idf * (f * 2.2)) / (f + 1.2 * (1 - 0.75 + (0.75 * lengths.get(entry.id)!) / averageLength))
      const sofar = scores.get(entry.id) ?? { score: 0, matched: 0 }
      scores.set(entry.id, { score: sofar.score + share, matched: sofar.matched + 1 })
    }
  }
  const byId = new Map(live.map((entry) => [entry.id, entry]))
  return [...scores]
    .filter(
      ([id, { matched }]) => (mode === 'or' || matched === terms.length) && (types.length === 0 || types.includes(byId.get(id)!.type))
    )
    .sort(([a, x], [b, y]) => y.score - x.score || b - a)
    .slice(0, limit)
    .map(([id, { score }]) => ({ id, relevance: score, revision: byId.get(id)!.revision }))
}

test('the merged postings rank exactly as bm25 computed entry by entry: same ids, same relevance bits, ties by id descending', () => {
  const next = random(11)
  const index = createTermIndex()
  const latest = new Map<number, IndexedEntry>()
  let revision = 0
  // Ids put out of order and rewritten, so lists carry unsorted tails that queries sort in; few distinct words, so
  // many scores tie.
  const ids = Array.from({ length: 400 }, (_, i) => i + 1).sort(() => next() - 0.5)
  for (let round = 0; round < 2; round++) {
    for (const id of ids.slice(0, round === 0 ? 400 : 150)) {
      const entry = entryOf(id, ++revision, next)
      index.put(entry)
      latest.set(id, entry)
    }
    for (let q = 0; q < 60; q++) {
      const terms = [...new Set([words[Math.floor(next() * 60)]!, words[Math.floor(next() * 200)]!, words[q % 30]!])]
      for (const mode of ['or', 'and'] as const) {
        for (const types of [[], ['decision']]) {
          const limit = 1 + Math.floor(next() * 80)
          const expected = bruteForceRank([...latest.values()], terms, mode, types, limit)
          const ranked = index.rank(searchFilter(terms, { mode, types }), limit)
          assert.deepEqual(withoutSlots(ranked, index), expected, `${terms.join(' ')} ${mode} ${types.join()} top ${limit}`)
          for (const hit of ranked) assert.equal(hit.slot, index.slotOf(hit.id))
        }
      }
    }
  }
})

test('a scope with an entry id beyond what postings hold says so (it is ranked in SQL)', () => {
  const index = createTermIndex()
  const next = random(3)
  index.put(entryOf(5, 1, next))
  assert.equal(index.holdsEveryEntry(), true)
  index.put(entryOf(2 ** 31, 2, next))
  assert.equal(index.holdsEveryEntry(), false)
})
