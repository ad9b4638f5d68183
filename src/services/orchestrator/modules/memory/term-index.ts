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
import { Matches, MAX_POSTING_ID, Postings } from './postings.js'
import { topCandidates } from './top-candidates.js'

export interface RankedId {
  id: number
  relevance: number
  /** The entry's place in the index (stable while the index lives): what kept renderings are found by. */
  slot: number
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

/**
 * Entries live in slots (parallel arrays, one slot per id), and a query is scored by merging its terms' postings in
 * id order (postings.ts): typed-array reads, not map lookups. A changed entry is taken out of its old terms' postings
 * at once, so every posting is current.
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
  /**
   * A query's matches while it is ranked, reused by every query: pushing ~600 matches onto fresh arrays allocated
   * ~40 KB per query (measured with V8's sampling heap profiler), a third of a search's young-generation garbage.
   */
  const matches = new Matches()
  /** An entry id postings cannot hold was written: the scope is ranked in SQL (see `holdsEveryEntry`). */
  let idOutOfRange = false
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
    for (const term of terms) postingsByNumber[term]!.remove(ids[slot]!)
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
    if (entry.id > MAX_POSTING_ID || entry.id < -MAX_POSTING_ID) {
      idOutOfRange = true
      return
    }
    let slot = slotOf.get(entry.id)
    if (slot !== undefined) {
      if (revisions[slot]! >= entry.revision) return
      unlist(slot)
    } else {
      slot = ids.length
      slotOf.set(entry.id, slot)
      ids.push(entry.id)
      listed.push(false)
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
      postingsByNumber[number]!.push(entry.id, slot, f, tokenCount)
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
    matches.reserve(ids.length)
    matches.clear()
    for (const list of lists) {
      list.sort()
      const n = list.count
      matches.add(list, Math.max(IDF_FLOOR, Math.log((liveDocs - n + 0.5) / (n + 0.5))), K1, B, averageLength)
    }
    // The matches that qualify, moved to the front (still in id order).
    const required = filter.mode === 'and' ? lists.length : 1
    const filtered = filter.types.length > 0 || filter.statuses.length > 0 || filter.sprintMin !== null
    const { ids: matchIds, slots: matchSlots, scores: matchScores, matched } = matches
    let count = 0
    for (let i = 0; i < matches.count; i++) {
      if (matched[i]! < required || (filtered && !passes(matchSlots[i]!, filter))) continue
      matchIds[count] = matchIds[i]!
      matchSlots[count] = matchSlots[i]!
      matchScores[count] = matchScores[i]!
      count++
    }
    return topCandidates(matchScores, matchIds, count, limit).map((at) => ({
      id: matchIds[at]!,
      relevance: matchScores[at]!,
      slot: matchSlots[at]!
    }))
  }

  return {
    put,
    rank,
    /** The revision the index holds for an entry (undefined: not indexed). */
    revisionOf: (id: number) => {
      const slot = slotOf.get(id)
      return slot === undefined ? undefined : revisions[slot]
    },
    /** The entry's slot (undefined: not indexed). */
    slotOf: (id: number) => slotOf.get(id),
    size: () => ids.length,
    /** False once an entry whose id postings cannot hold was written (such a scope is ranked in SQL). */
    holdsEveryEntry: () => !idOutOfRange,
    /** Postings held (one per distinct word of each entry): what the index's memory grows with. */
    postings: () => postingCount
  }
}
export type TermIndex = ReturnType<typeof createTermIndex>
