/**
 * An in-memory inverted index of one memory scope, ranking the way SQLite's FTS5 `bm25()` does
 * (same k1, b, idf floor and column weights), but over the scope alone and without reading a
 * position list per match: FTS5 spent about 1 µs per matching row, so a two-word query over
 * 50,000 entries cost ~0.8 ms of SQL before a page was assembled, on every different query.
 *
 * A changed entry is taken out of its old terms' postings and added under its new revision, so
 * every posting is current. The index holds its numbers in typed arrays: a full collection has no
 * references to follow in them.
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

/**
 * The entries containing one term, in no order: triples, one per entry, of slot, weighted term frequency f(q, D)
 * (occurrences per column times the column's weight) and the entry's length in tokens — side by side, so scoring a
 * posting reads memory in order (an entry's changes take it out of its postings, so the length stays current). In a
 * typed array: as arrays of numbers, the 5 million values of 50,000 entries were slots every full collection walked
 * (a forced one took 101–148 ms with the index so; 27–44 ms with typed arrays and the term runs below, 9–20 ms empty).
 */
class Postings {
  // Most terms are in a few entries (ids, names): up to 64 bytes, V8 keeps a typed array's numbers inside the heap
  // object, with no separate buffer for a collection to track.
  data = new Int32Array(15)
  length = 0

  push(slot: number, f: number, tokenCount: number) {
    if (this.length + 3 > this.data.length) {
      const grown = new Int32Array(this.data.length * 2 + 3)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length] = slot
    this.data[this.length + 1] = f
    this.data[this.length + 2] = tokenCount
    this.length += 3
  }

  /** Takes a slot's triple out, moving the last one into its place. */
  remove(slot: number) {
    const data = this.data
    let at = this.length - 3
    while (at >= 0 && data[at] !== slot) at -= 3
    // An entry is in every list its term run names: anything else is a broken index, not a loop without end.
    if (at < 0) throw new Error(`memory term index: entry slot ${slot} is missing from a term's postings`)
    const last = this.length - 3
    data[at] = data[last]!
    data[at + 1] = data[last + 1]!
    data[at + 2] = data[last + 2]!
    this.length = last
  }
}

/**
 * The terms (as indices into the index's postings) of each listed entry, to take it out of them when it changes:
 * one growing typed array with each entry's run of term numbers, rather than an array of references per entry
 * (1.6 million references for 50,000 entries). A changed entry's old run is left behind and the array is compacted
 * when such runs are most of it.
 */
class TermRuns {
  #data = new Int32Array(1024)
  #end = 0
  #dead = 0
  readonly #start: number[] = []
  readonly #count: number[] = []

  set(slot: number, terms: readonly number[]) {
    this.clear(slot)
    if (this.#dead > this.#end / 2 && this.#dead > 1024) this.#compact()
    if (this.#end + terms.length > this.#data.length) this.#grow(this.#end + terms.length)
    this.#start[slot] = this.#end
    this.#count[slot] = terms.length
    for (const term of terms) this.#data[this.#end++] = term
  }

  get(slot: number): Int32Array {
    const start = this.#start[slot] ?? 0
    return this.#data.subarray(start, start + (this.#count[slot] ?? 0))
  }

  clear(slot: number) {
    this.#dead += this.#count[slot] ?? 0
    this.#count[slot] = 0
  }

  #grow(needed: number) {
    const grown = new Int32Array(Math.max(needed, 2 * this.#data.length))
    grown.set(this.#data.subarray(0, this.#end))
    this.#data = grown
  }

  #compact() {
    const data = new Int32Array(Math.max(1024, 2 * (this.#end - this.#dead)))
    let end = 0
    for (let slot = 0; slot < this.#start.length; slot++) {
      const count = this.#count[slot] ?? 0
      data.set(this.#data.subarray(this.#start[slot]!, this.#start[slot]! + count), end)
      this.#start[slot] = end
      end += count
    }
    this.#data = data
    this.#end = end
    this.#dead = 0
  }
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
  /** The postings of each term, by term number. */
  const termNumbers = new Map<string, number>()
  const postingsByNumber: Postings[] = []
  /** The term numbers of each listed entry. */
  const termRuns = new TermRuns()
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

  /** One string per distinct type and status rather than one per row read (100,000 strings for a collection to mark). */
  const names = new Map<string, string>()
  function interned(name: string): string {
    const known = names.get(name)
    if (known !== undefined) return known
    names.set(name, name)
    return name
  }

  function unlist(slot: number) {
    const terms = termRuns.get(slot)
    for (const term of terms) postingsByNumber[term]!.remove(slot)
    postingCount -= terms.length
    termRuns.clear(slot)
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
    types[slot] = interned(entry.type)
    statuses[slot] = interned(entry.status)
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
    const terms: number[] = []
    for (const [term, f] of frequency) {
      let number = termNumbers.get(term)
      if (number === undefined) {
        number = postingsByNumber.length
        termNumbers.set(term, number)
        postingsByNumber.push(new Postings())
      }
      postingsByNumber[number]!.push(slot, f, tokenCount)
      terms.push(number)
    }
    termRuns.set(slot, terms)
    postingCount += terms.length
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
      const number = termNumbers.get(term)
      const list = number === undefined ? undefined : postingsByNumber[number]!
      if (list && list.length > 0) lists.push(list)
      else if (filter.mode === 'and') return []
    }
    const averageLength = liveTokens / liveDocs
    // A query touches each listed slot at most once.
    if (touched.length < ids.length) {
      touched = new Int32Array(Math.max(ids.length, 2 * touched.length))
      candidates = new Int32Array(touched.length)
    }
    let touchedCount = 0
    for (const { data: triples, length } of lists) {
      const n = length / 3
      const idf = Math.max(IDF_FLOOR, Math.log((liveDocs - n + 0.5) / (n + 0.5)))
      for (let i = 0; i < length; i += 3) {
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
