/**
 * Ranked memory searches from an in-memory term index per scope, kept in step with the database.
 *
 * Every search already reads the scope's version (one indexed read). When it differs from the
 * version the index was brought up to, the entries written since (`revision >` the highest one
 * indexed; revisions are dense and only grow) are read and indexed before ranking. Any process may
 * write — a job, the CLI, another server — and the next search sees it, as with the SQL ranking.
 * A page's rows are read by id and must carry the revisions the index ranked; otherwise the index
 * catches up and ranks again.
 *
 * The ranking is the index's alone: ordering by SQL until an index is ready would reorder a
 * client's pages under its cursor (or a kept answer) when it is. So a scope's first term search
 * builds its index (in slices, letting other requests run between them); only a scope too large to
 * hold (`maxEntries`, `maxPostings` over all scopes) is ranked in SQL, where `search` answers undefined.
 *
 * What a page shows of an entry depends on its row alone, so each scope also keeps the rendering
 * of the entries it has shown (page.ts, `RenderedEntry`) under their revision, for every later
 * query that ranks them: reading the rows, serialising and digesting them was most of a search.
 * The version counts every row written (by triggers: migrations 0009 and 0021), so a page of kept
 * entries reads no row; the kept renderings are dropped when a version change is not explained by
 * the rows the catch-up indexed (such as a write by hand that kept the revision).
 */
import type { MemoryRepository, MemoryScopeKey, MemorySearchFilter } from '../../state/memory.repository.js'
import { writeCountOf } from '../../state/memory-rows.js'
import { RankedHit, renderEntry, type RankedPage, type RenderedEntry } from './page.js'
import { createTermIndex, type TermIndex } from './term-index.js'

export interface IndexedSearchOptions {
  /** Entries held over all scopes; the least recently searched scopes make room (default 100,000). */
  maxEntries?: number
  /**
   * Postings (one per distinct word of an entry) held over all scopes: the bound on memory, since an
   * entry may hold 1 MB of text. ~50 bytes each with their share of the rest (measured: 50,000
   * entries of ~32 distinct words, 1.6 million postings, ~70 MB of heap with 12-byte postings; the
   * 16-byte ones that also hold the entry's id added ~7 MB). Default 4,000,000.
   */
  maxPostings?: number
  /** Rows read per statement while building or catching up. */
  batch?: number
  /**
   * Characters of kept renderings over all scopes (the oldest go first); a scope whose every entry would not fit
   * keeps none. Measured ~2 KB of heap per kept entry of the bench's data (30 words each): its 50,000 entries
   * hold ~105 MB once all were shown. Default 128 Mi characters.
   */
  maxRenderedChars?: number
  onError?: (error: unknown) => void
}

interface ScopeState {
  scope: MemoryScopeKey
  index: TermIndex | null
  /** Highest revision indexed. */
  snapshot: number
  /** The version the index was last brought up to (null: catch up before the next search). */
  version: string | null
  building: Promise<void> | null
  syncing: Promise<void> | null
  tooLarge: boolean
  /**
   * Renderings of entries shown on pages, by the entry's slot in the index, oldest first, and their estimated size in
   * characters; the same renderings in an array by slot, where a search finds its hits' (a Map lookup per hit was ~5 %
   * of a search). Slots are the index's: the renderings are dropped whenever the index is built anew. A kept rendering
   * is always of the revision the index holds (kept only then, dropped when the index takes another), so a search uses
   * it without reading it: that read was a cache miss per hit.
   */
  rendered: Map<number, RenderedEntry>
  renderedBySlot: Array<RenderedEntry | undefined>
  renderedChars: number
  /** The write count up to which every write is known to be one the index took in (null: unknown). */
  explainedWrites: number | null
  /** Raised whenever the renderings are dropped: a row read before must not be kept after. */
  renderedGeneration: number
}

const ATTEMPTS = 3
/** How long a build or catch-up runs before it lets requests in. */
const SLICE_MS = 10

export function createIndexedSearch(repository: MemoryRepository, options: IndexedSearchOptions = {}) {
  const maxEntries = options.maxEntries ?? 100_000
  const maxPostings = options.maxPostings ?? 4_000_000
  const batch = options.batch ?? 500
  const maxRenderedChars = options.maxRenderedChars ?? 128 * 1024 * 1024
  const scopes = new Map<string, ScopeState>()
  let renderedChars = 0

  const keyOf = (scope: MemoryScopeKey) => `${scope.projectId}\n${scope.tenantId}`
  const held = (measure: (index: TermIndex) => number) =>
    [...scopes.values()].reduce((sum, state) => sum + (state.index ? measure(state.index) : 0), 0)
  const overLimits = () => held((index) => index.size()) > maxEntries || held((index) => index.postings()) > maxPostings

  // The rest of a rendering (its object, digests) ~200 characters, and ~400 for the detail reference of one consumer
  // (made when the entry is first deferred, after it was kept).
  const charsOf = (rendered: RenderedEntry) =>
    rendered.entryItemHead.length + rendered.candidateHead.length + rendered.candidateTail.length + rendered.contentDigestJson.length + 600

  function forgetRendered(state: ScopeState) {
    renderedChars -= state.renderedChars
    state.renderedChars = 0
    state.rendered = new Map()
    state.renderedBySlot = []
    state.renderedGeneration++
  }

  function keepRendered(state: ScopeState, slot: number, rendered: RenderedEntry) {
    dropRendered(state, slot)
    state.rendered.set(slot, rendered)
    // Grown by pushing, so the array stays packed (an element far past its end makes it a dictionary).
    while (state.renderedBySlot.length <= slot) state.renderedBySlot.push(undefined)
    state.renderedBySlot[slot] = rendered
    renderedChars += charsOf(rendered)
    state.renderedChars += charsOf(rendered)
    if (renderedChars > maxRenderedChars) makeRenderedRoom()
  }

  function dropRendered(state: ScopeState, slot: number) {
    const kept = state.rendered.get(slot)
    if (kept === undefined) return
    renderedChars -= charsOf(kept)
    state.renderedChars -= charsOf(kept)
    state.rendered.delete(slot)
    state.renderedBySlot[slot] = undefined
  }

  /** Drops an entry's kept rendering unless it is of the revision the index now holds. */
  function dropStaleRendering(state: ScopeState, index: TermIndex, id: number) {
    const slot = index.slotOf(id)
    if (slot === undefined) return
    const kept = state.renderedBySlot[slot]
    if (kept !== undefined && kept.revision !== index.revisionOf(id)) dropRendered(state, slot)
  }

  /**
   * Drops the oldest renderings down to three quarters of the budget, least recently searched scopes first, copying
   * the survivors into a new map: deleting one entry per insertion from the front of a Map leaves holes every later
   * eviction walks over (a search slowed from ~600 to ~900 µs within 12,000 queries of a full store).
   */
  function makeRenderedRoom() {
    const target = maxRenderedChars * 0.75
    for (const state of scopes.values()) {
      if (renderedChars <= target) return
      const survivors = new Map<number, RenderedEntry>()
      for (const [slot, rendered] of state.rendered) {
        if (renderedChars > target) {
          renderedChars -= charsOf(rendered)
          state.renderedChars -= charsOf(rendered)
          state.renderedBySlot[slot] = undefined
        } else survivors.set(slot, rendered)
      }
      state.rendered = survivors
    }
  }

  /** Reads and indexes everything after `state.snapshot`; false when the scope outgrew the limits. */
  async function catchUp(state: ScopeState, index: TermIndex, onRows: (count: number) => void = () => {}): Promise<boolean> {
    let sliceStarted = performance.now()
    for (;;) {
      const rows = await repository.changedSince(state.scope, state.snapshot, batch)
      onRows(rows.length)
      for (const row of rows) {
        index.put(row)
        if (state.index === index) dropStaleRendering(state, index, row.id)
        if (row.revision > state.snapshot) state.snapshot = row.revision
      }
      if (!index.holdsEveryEntry() || index.size() > maxEntries || index.postings() > maxPostings) return false
      if (rows.length < batch) return true
      // Let requests run every few milliseconds of a long build (SQLite reads block the event loop).
      if (performance.now() - sliceStarted > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        sliceStarted = performance.now()
      }
    }
  }

  function makeRoom(forScope: ScopeState) {
    for (const [key, state] of scopes) {
      if (!overLimits()) return
      if (state !== forScope && state.index && !state.building) {
        forgetRendered(state)
        scopes.delete(key)
      }
    }
  }

  function build(state: ScopeState) {
    const index = createTermIndex()
    state.snapshot = 0
    forgetRendered(state)
    state.explainedWrites = null
    state.building = catchUp(state, index)
      .then((fits) => {
        if (!fits) {
          state.tooLarge = true
          return
        }
        state.index = index
        state.version = null
        makeRoom(state)
      })
      .catch((error: unknown) => {
        options.onError?.(error)
      })
      .finally(() => {
        state.building = null
      })
  }

  /** Brings a ready index up to `version` (one catch-up at a time per scope). */
  async function sync(state: ScopeState, version: string): Promise<boolean> {
    while (state.version !== version) {
      if (state.syncing) {
        await state.syncing
        continue
      }
      let indexedRows = 0
      const running = catchUp(state, state.index!, (count) => (indexedRows += count)).then((fits) => {
        if (!fits) {
          state.tooLarge = true
          state.index = null
        }
        const writes = writeCountOf(version)
        if (state.explainedWrites === null || writes - state.explainedWrites !== indexedRows) forgetRendered(state)
        state.explainedWrites = writes
        state.version = version
      })
      state.syncing = running.finally(() => {
        state.syncing = null
      })
      await state.syncing
    }
    return state.index !== null
  }

  /**
   * The page of a term search at `version` (the scope's version read for this request), or
   * undefined when the scope has no ready index: the caller ranks in SQL then.
   */
  async function search(
    scope: MemoryScopeKey,
    filter: MemorySearchFilter,
    offset: number,
    size: number,
    version: () => Promise<string>
  ): Promise<RankedPage | undefined> {
    const key = keyOf(scope)
    let state = scopes.get(key)
    if (state) {
      // Most recently searched last: the first scopes are the ones to drop for room.
      if (scopes.size > 1) {
        scopes.delete(key)
        scopes.set(key, state)
      }
    } else {
      state = {
        scope,
        index: null,
        snapshot: 0,
        version: null,
        building: null,
        syncing: null,
        tooLarge: false,
        rendered: new Map(),
        renderedBySlot: [],
        renderedChars: 0,
        explainedWrites: null,
        renderedGeneration: 0
      }
      scopes.set(key, state)
    }
    if (state.tooLarge) return undefined
    if (!state.index) {
      if (!state.building) build(state)
      await state.building
      if (!state.index) return undefined
    }
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await version()
      if (!(await sync(state, current)) || !state.index) return undefined
      const index: TermIndex = state.index
      // What the index holds now: a catch-up for a newer version may index more while the rows are read.
      const snapshot = state.snapshot
      const top = index.rank(filter, offset + size)
      const ranked = offset > 0 ? top.slice(offset) : top
      const hits = new Array<RankedHit | undefined>(ranked.length)
      const unread: number[] = []
      for (let at = 0; at < ranked.length; at++) {
        const hit = ranked[at]!
        const kept = state.renderedBySlot[hit.slot]
        if (kept !== undefined) hits[at] = new RankedHit(hit.relevance, kept)
        else unread.push(hit.id)
      }
      // Every hit kept (the usual case once a scope's entries were shown): no row to read.
      if (unread.length === 0) return { snapshot, version: current, hits: hits as RankedHit[], ranking: 'index' }
      const generation = state.renderedGeneration
      const rows = await repository.getMany(scope, unread)
      const byId = new Map(rows.map((row) => [row.id, row]))
      // Quartet never deletes entries; one deleted or marked deleted by hand (no new revision) rebuilds the index.
      if (unread.some((id) => byId.get(id)?.deleted_at !== null)) {
        if (state.index === index) {
          state.index = null
          build(state)
        }
        await state.building
        if (!state.index) return undefined
        continue
      }
      // A row written after the catch-up: rank again with it indexed.
      if (unread.some((id) => byId.get(id)?.revision !== index.revisionOf(id))) {
        state.version = null
        continue
      }
      const everyEntryFits = (averageChars: number) => index.size() * averageChars <= maxRenderedChars
      const keep = (rendered: RenderedEntry) => {
        if (state.index !== index || state.renderedGeneration !== generation) return
        // Only a scope whose every entry would fit keeps renderings: with room for a third of them, a uniform load
        // read ~25 % slower than keeping none (each kept rendering is old-generation garbage once evicted).
        // A catch-up may have indexed a newer revision while the row was read.
        const slot = index.slotOf(rendered.id)
        if (
          slot !== undefined &&
          rendered.revision === index.revisionOf(rendered.id) &&
          everyEntryFits(state.rendered.size > 0 ? state.renderedChars / state.rendered.size : charsOf(rendered))
        )
          keepRendered(state, slot, rendered)
      }
      // Once the scope is known to keep renderings, a row read is rendered and kept at once, also a hit the page ends
      // before: left unrendered, it was read again by every later query that ranked it just past a page's end (a
      // quarter of different queries read a row or two). Until then a hit is rendered only when the page uses it.
      const keeping = state.rendered.size > 0 && everyEntryFits(state.renderedChars / state.rendered.size)
      for (let at = 0; at < ranked.length; at++) {
        if (hits[at] !== undefined) continue
        const row = byId.get(ranked[at]!.id)!
        const kept = state.renderedBySlot[ranked[at]!.slot]
        const relevance = ranked[at]!.relevance
        if (kept !== undefined && kept.revision === row.revision && kept.updatedAt === row.updated_at)
          hits[at] = new RankedHit(relevance, kept)
        else if (keeping) {
          const rendered = renderEntry(row)
          keep(rendered)
          hits[at] = new RankedHit(relevance, rendered)
        } else hits[at] = new RankedHit(relevance, null, row, keep)
      }
      return { snapshot, version: current, hits: hits as RankedHit[], ranking: 'index' }
    }
    return undefined
  }

  return { search }
}
export type IndexedSearch = ReturnType<typeof createIndexedSearch>
