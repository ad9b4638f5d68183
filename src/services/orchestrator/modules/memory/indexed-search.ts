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
 */
import type { MemoryRepository, MemoryScopeKey, MemorySearchFilter, MemorySearchPage } from '../../state/memory.repository.js'
import { createTermIndex, type TermIndex } from './term-index.js'

export interface IndexedSearchOptions {
  /** Entries held over all scopes; the least recently searched scopes make room (default 100,000). */
  maxEntries?: number
  /**
   * Postings (one per distinct word of an entry) held over all scopes: the bound on memory, since an
   * entry may hold 1 MB of text. ~45 bytes each with their share of the rest (measured: 50,000
   * entries of ~32 distinct words, 1.6 million postings, ~70 MB of heap). Default 4,000,000.
   */
  maxPostings?: number
  /** Rows read per statement while building or catching up. */
  batch?: number
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
}

const ATTEMPTS = 3
/** How long a build or catch-up runs before it lets requests in. */
const SLICE_MS = 10

export function createIndexedSearch(repository: MemoryRepository, options: IndexedSearchOptions = {}) {
  const maxEntries = options.maxEntries ?? 100_000
  const maxPostings = options.maxPostings ?? 4_000_000
  const batch = options.batch ?? 500
  const scopes = new Map<string, ScopeState>()

  const keyOf = (scope: MemoryScopeKey) => `${scope.projectId}\n${scope.tenantId}`
  const held = (measure: (index: TermIndex) => number) =>
    [...scopes.values()].reduce((sum, state) => sum + (state.index ? measure(state.index) : 0), 0)
  const overLimits = () => held((index) => index.size()) > maxEntries || held((index) => index.postings()) > maxPostings

  /** Reads and indexes everything after `state.snapshot`; false when the scope outgrew the limits. */
  async function catchUp(state: ScopeState, index: TermIndex): Promise<boolean> {
    let sliceStarted = performance.now()
    for (;;) {
      const rows = await repository.changedSince(state.scope, state.snapshot, batch)
      for (const row of rows) {
        index.put(row)
        if (row.revision > state.snapshot) state.snapshot = row.revision
      }
      if (index.size() > maxEntries || index.postings() > maxPostings) return false
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
      if (state !== forScope && state.index && !state.building) scopes.delete(key)
    }
  }

  function build(state: ScopeState) {
    const index = createTermIndex()
    state.snapshot = 0
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
      const running = catchUp(state, state.index!).then((fits) => {
        if (!fits) {
          state.tooLarge = true
          state.index = null
        }
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
  ): Promise<MemorySearchPage | undefined> {
    const key = keyOf(scope)
    let state = scopes.get(key)
    if (state) {
      // Most recently searched last: the first scopes are the ones to drop for room.
      scopes.delete(key)
      scopes.set(key, state)
    } else {
      state = { scope, index: null, snapshot: 0, version: null, building: null, syncing: null, tooLarge: false }
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
      const ranked = index.rank(filter, offset + size).slice(offset)
      const rows = await repository.getMany(
        scope,
        ranked.map((hit) => hit.id)
      )
      const byId = new Map(rows.map((row) => [row.id, row]))
      // Quartet never deletes entries; one deleted or marked deleted by hand (no new revision) rebuilds the index.
      if (ranked.some((hit) => byId.get(hit.id)?.deleted_at !== null)) {
        if (state.index === index) {
          state.index = null
          build(state)
        }
        await state.building
        if (!state.index) return undefined
        continue
      }
      // A row written after the catch-up: rank again with it indexed.
      if (ranked.some((hit) => byId.get(hit.id)?.revision !== index.revisionOf(hit.id))) {
        state.version = null
        continue
      }
      const hits = ranked.map((hit) => Object.assign(byId.get(hit.id)!, { relevance: hit.relevance }))
      return { snapshot, version: current, hits, ranking: 'index' }
    }
    return undefined
  }

  return { search }
}
export type IndexedSearch = ReturnType<typeof createIndexedSearch>
