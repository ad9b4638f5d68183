import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createTermIndex } from '../../../../src/services/orchestrator/modules/memory/term-index.js'
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
      assert.deepEqual(changed.rank(filter, 40), fresh.rank(filter, 40), `${terms.join(' ')} (${mode})`)
    }
  }
})
