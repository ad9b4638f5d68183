/**
 * An in-memory inverted index of one memory scope, ranking the way SQLite's FTS5 `bm25()` does
 * (same k1, b, idf floor and column weights), but over the scope alone and without reading a
 * position list per match: FTS5 spent about 1 µs per matching row, so a two-word query over
 * 50,000 entries cost ~0.8 ms of SQL before a page was assembled, on every different query.
 *
 * Postings are appended, never edited: a changed entry gets new postings under its new revision
 * and its old ones are skipped (and counted, so the index can be rebuilt when they pile up).
 */
import type { IndexedEntry, MemorySearchFilter } from '../../state/memory.repository.js'

export interface RankedId {
  id: number
  relevance: number
  /** The revision the index holds for the entry (what a kept rendering of it must carry). */
  revision: number
}

// FTS5's bm25 defaults, and the weights the SQL ranking passes (title, summary, content, tags).
const K1 = 1.2
const B = 0.75
const IDF_FLOOR = 1e-6
const WEIGHTS = [8, 4, 1, 4] as const

const WORD = /[\p{L}\p{N}\p{Co}]+/gu
const MARKS = /\p{M}/gu

/** Folds a word as FTS5's unicode61 tokenizer with remove_diacritics does: lower case, no diacritics. */
export function foldTerm(word: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(word)) return word.toLowerCase()
  return word.toLowerCase().normalize('NFD').replace(MARKS, '').normalize('NFC')
}

function tokens(text: string): string[] {
  // eslint-disable-next-line no-control-regex
  const folded = /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : text.toLowerCase().normalize('NFD').replace(MARKS, '')
  return folded.match(WORD) ?? []
}

/** The entries containing one term, in no order: parallel arrays of slot and weighted frequency. */
interface Postings {
  /**
   * Triples, one per entry: slot, weighted term frequency f(q, D) (occurrences per column times the
   * column's weight) and the entry's length in tokens — side by side, so scoring a posting reads
   * memory in order (an entry's changes take it out of its postings, so the length stays current).
   */
  triples: number[]
}

/** The heap of `topSlots`: score, id and slot of each kept candidate side by side (reused by every query). */
let heapScores = new Float64Array(64)
let heapIds = new Float64Array(64)
let heapSlots = new Int32Array(64)

/**
 * Keeps the best `limit` of (score desc, id desc) as slots, best first: a bounded heap with the worst kept candidate on
 * top, its scores and ids copied beside it. Comparing through `sums` read two random places of an array of 100,000
 * numbers per comparison, and candidates taken in slot order (mostly id order) each beat every kept tie: the heap was
 * most of a ranking (~70 % of 36 µs for 600 matches). Taken from the last, a tie rarely displaces the worst kept.
 */
function topSlots(candidates: Int32Array, count: number, sums: Float64Array, ids: number[], limit: number): number[] {
  const size = Math.min(count, limit)
  if (heapScores.length < size) {
    heapScores = new Float64Array(size)
    heapIds = new Float64Array(size)
    heapSlots = new Int32Array(size)
  }
  const scores = heapScores
  const keys = heapIds
  const slots = heapSlots
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && keys[a]! < keys[b]!)
  let heapSize = size
  const siftDown = (from: number) => {
    let at = from
    for (;;) {
      const left = 2 * at + 1
      if (left >= heapSize) return
      const right = left + 1
      const child = right < heapSize && worse(right, left) ? right : left
      if (!worse(child, at)) return
      const score = scores[at]!
      const key = keys[at]!
      const slot = slots[at]!
      scores[at] = scores[child]!
      keys[at] = keys[child]!
      slots[at] = slots[child]!
      scores[child] = score
      keys[child] = key
      slots[child] = slot
      at = child
    }
  }
  let next = count - 1
  for (let kept = 0; kept < size; kept++, next--) {
    const slot = candidates[next]!
    scores[kept] = sums[2 * slot]!
    keys[kept] = ids[slot]!
    slots[kept] = slot
  }
  for (let at = (size >> 1) - 1; at >= 0; at--) siftDown(at)
  for (; next >= 0; next--) {
    const slot = candidates[next]!
    const score = sums[2 * slot]!
    if (score < scores[0]! || (score === scores[0] && ids[slot]! < keys[0]!)) continue
    scores[0] = score
    keys[0] = ids[slot]!
    slots[0] = slot
    siftDown(0)
  }
  // Best first: the worst kept leaves the heap first and goes last (cheaper than a sort with a comparator).
  const best = new Array<number>(size)
  while (heapSize > 0) {
    best[heapSize - 1] = slots[0]!
    heapSize--
    scores[0] = scores[heapSize]!
    keys[0] = keys[heapSize]!
    slots[0] = slots[heapSize]!
    siftDown(0)
  }
  return best
}

/**
 * Entries live in slots (parallel arrays, one slot per id): scoring a posting is array reads and
 * one Float64Array add, not map lookups — ~10× faster per match than Maps keyed by id. A changed
 * entry is taken out of its old terms' postings at once, so every posting is current.
 */
export function createTermIndex() {
  const slotOf = new Map<number, number>()
  const ids: number[] = []
  const tokenCounts: number[] = []
  const revisions: number[] = []
  const listed: boolean[] = []
  const types: string[] = []
  const statuses: string[] = []
  const sprintNums: Array<number | null> = []
  /** The postings each listed entry is in, to take it out when it changes. */
  const termsOf: Array<Postings[] | null> = []
  const postings = new Map<string, Postings>()
  /** Per slot, while a query is ranked: its score so far and how many of the query's terms matched. */
  let sums = new Float64Array(2 * 1024)
  /**
   * The slots a query touched, and those of them that match: reused by every query. Pushing ~600 slots onto a
   * fresh array allocated ~40 KB per query (measured with V8's sampling heap profiler), a third of a search's
   * young-generation garbage.
   */
  let touched = new Int32Array(1024)
  let candidates = new Int32Array(1024)
  let liveTokens = 0
  let liveDocs = 0
  let postingCount = 0

  function unlist(slot: number) {
    for (const list of termsOf[slot] ?? []) {
      const triples = list.triples
      let at = triples.length - 3
      while (triples[at] !== slot) at -= 3
      const last = triples.length - 3
      triples[at] = triples[last]!
      triples[at + 1] = triples[last + 1]!
      triples[at + 2] = triples[last + 2]!
      triples.length = last
    }
    postingCount -= termsOf[slot]?.length ?? 0
    termsOf[slot] = null
    if (listed[slot]) {
      liveTokens -= tokenCounts[slot]!
      liveDocs--
      listed[slot] = false
    }
  }

  /** Adds an entry, or replaces the one with its id (a deleted entry stays out of every search). */
  function put(entry: IndexedEntry): void {
    let slot = slotOf.get(entry.id)
    if (slot !== undefined) {
      if (revisions[slot]! >= entry.revision) return
      unlist(slot)
    } else {
      slot = ids.length
      slotOf.set(entry.id, slot)
      ids.push(entry.id)
      listed.push(false)
      if (2 * slot >= sums.length) {
        const grown = new Float64Array(sums.length * 2)
        grown.set(sums)
        sums = grown
      }
    }
    revisions[slot] = entry.revision
    types[slot] = entry.type
    statuses[slot] = entry.status
    sprintNums[slot] = entry.sprint_num
    tokenCounts[slot] = 0
    if (entry.deleted_at !== null) return
    const frequency = new Map<string, number>()
    let tokenCount = 0
    const columns = [entry.title, entry.summary ?? '', entry.content, entry.tags]
    for (let c = 0; c < columns.length; c++) {
      const words = tokens(columns[c]!)
      tokenCount += words.length
      for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + WEIGHTS[c]!)
    }
    const lists: Postings[] = []
    for (const [term, f] of frequency) {
      let list = postings.get(term)
      if (!list) postings.set(term, (list = { triples: [] }))
      list.triples.push(slot, f, tokenCount)
      lists.push(list)
    }
    termsOf[slot] = lists
    postingCount += lists.length
    tokenCounts[slot] = tokenCount
    listed[slot] = true
    liveTokens += tokenCount
    liveDocs++
  }

  function passes(slot: number, filter: MemorySearchFilter): boolean {
    if (filter.types.length > 0 && !filter.types.includes(types[slot]!)) return false
    if (filter.statuses.length > 0 && !filter.statuses.includes(statuses[slot]!)) return false
    if (filter.sprintMin === null) return true
    const sprint = sprintNums[slot]
    return sprint !== null && sprint !== undefined && sprint >= filter.sprintMin
  }

  /**
   * The first `limit` matches of the filter in rank order (relevance desc, id desc), with bm25
   * computed over the scope's current entries.
   */
  function rank(filter: MemorySearchFilter, limit: number): RankedId[] {
    const terms = [...new Set(filter.terms.map(foldTerm))]
    if (liveDocs === 0 || terms.length === 0 || limit <= 0) return []
    const lists: Postings[] = []
    for (const term of terms) {
      const list = postings.get(term)
      if (list && list.triples.length > 0) lists.push(list)
      else if (filter.mode === 'and') return []
    }
    const averageLength = liveTokens / liveDocs
    // A query touches each listed slot at most once.
    if (touched.length < ids.length) {
      touched = new Int32Array(Math.max(ids.length, 2 * touched.length))
      candidates = new Int32Array(touched.length)
    }
    let touchedCount = 0
    for (const { triples } of lists) {
      const n = triples.length / 3
      const idf = Math.max(IDF_FLOOR, Math.log((liveDocs - n + 0.5) / (n + 0.5)))
      for (let i = 0; i < triples.length; i += 3) {
        const at = 2 * triples[i]!
        const f = triples[i + 1]!
        if (sums[at + 1] === 0) touched[touchedCount++] = triples[i]!
        sums[at + 1]!++
        sums[at]! += (idf * (f * (K1 + 1))) / (f + K1 * (1 - B + (B * triples[i + 2]!) / averageLength))
      }
    }
    const required = filter.mode === 'and' ? lists.length : 1
    const filtered = filter.types.length > 0 || filter.statuses.length > 0 || filter.sprintMin !== null
    let count = 0
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i]!
      if (sums[2 * slot + 1]! >= required && (!filtered || passes(slot, filter))) candidates[count++] = slot
    }
    const top = topSlots(candidates, count, sums, ids, limit)
    const ranked = top.map((slot) => ({ id: ids[slot]!, relevance: sums[2 * slot]!, revision: revisions[slot]! }))
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i]!
      sums[2 * slot] = 0
      sums[2 * slot + 1] = 0
    }
    return ranked
  }

  return {
    put,
    rank,
    /** The revision the index holds for an entry (undefined: not indexed). */
    revisionOf: (id: number) => {
      const slot = slotOf.get(id)
      return slot === undefined ? undefined : revisions[slot]
    },
    size: () => ids.length,
    /** Postings held (one per distinct word of each entry): what the index's memory grows with. */
    postings: () => postingCount
  }
}
export type TermIndex = ReturnType<typeof createTermIndex>
