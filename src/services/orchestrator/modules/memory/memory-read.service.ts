import type { MemoryRepository, MemoryScopeKey } from '../../state/memory.repository.js'
import { digestOf, sha256Digest } from './canonical.js'
import {
  DEFAULT_READ_LIMITS,
  hold,
  MEMORY_SCHEMA_VERSION,
  type AbsentView,
  type AvailableView,
  type MemoryConsumer,
  type MemoryDetailView,
  type MemoryReadEntry,
  type MemoryReadLimits,
  type MemoryReadView,
  type MemoryScope
} from './contract.js'
import { CURSOR_PREFIX, DETAIL_PREFIX, type TokenSealer } from './opaque-token.js'
import {
  assemblePage,
  candidateDigestOf,
  entryWire,
  PREFERRED_LATEST_REASONS,
  QUERY_MATCH_REASONS,
  rankedPageOf,
  type AssembledPage,
  type RankedPage,
  type RenderedEntry
} from './page.js'
import { parseMemoryQuery, type MemoryQueryParams, type ParsedMemoryQuery, type QueryValue } from './query.js'
import { createVersionedCache } from '../../../../core/versioned-cache.js'
import { createIndexedSearch, type IndexedSearchOptions } from './indexed-search.js'
import { attachBody, bodyOf, bodyText, defineListGetters } from './view-body.js'
import { pageParts } from './page-body.js'
import { createReadDigests } from './read-digests.js'
import { createPageContexts, cursorJson, viewHead, type PageContext } from './page-context.js'

export interface MemoryReadDeps {
  repository: MemoryRepository
  sealer: TokenSealer
  limits?: MemoryReadLimits
  onQueryFailed?: (error: unknown) => void
  /** How many answered pages to keep (0: none). A kept page is served while the repository's version for its scope is unchanged. */
  cachedPages?: number
  /** Word searches ranked from an in-memory index per scope, built by its first one (false: always in SQL). */
  termIndex?: IndexedSearchOptions | false
}

interface CachedPage {
  version: string
  selectionRevisionDigest: string
  view: MemoryReadView
}

export type LegacySearchOutcome =
  | { kind: 'ok'; items: Array<Pick<MemoryReadEntry, 'entry' | 'relevance'>> }
  | { kind: 'held'; view: MemoryReadView & { state: 'HOLD' } }
  | { kind: 'unavailable' }

const scopeKeyOf = (scope: MemoryScope): MemoryScopeKey => ({ projectId: scope.projectId, tenantId: scope.tenantId })
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/**
 * Bounded reads of the memory under the versioned contract. Each page and its snapshot revision
 * come from one statement; a cursor is honoured only for the scope, query and limits it was made
 * for, and only while the scope's entries are unchanged (else CURSOR_STALE).
 *
 * Ranking and assembling a page (a digest and a sealed reference per hit) is the cost of a read;
 * planners, workers and dashboards repeat the same reads between writes. An answered page is kept
 * under its consumer, scope, query, limits and offset together with the version it was read at,
 * and served again only after one indexed read shows the version unchanged — any write, by any
 * process, changes it — so a kept answer is always the one a fresh read would give. The views are
 * shared between callers and must not be changed.
 */
export function createMemoryReadService(deps: MemoryReadDeps) {
  const { repository, sealer } = deps
  const baseLimits = deps.limits ?? DEFAULT_READ_LIMITS
  const indexed = deps.termIndex === false ? null : createIndexedSearch(repository, { onError: deps.onQueryFailed, ...deps.termIndex })
  // A page is kept from its second read on, so a stream of one-off queries (a scan, or a client
  // varying its query) does not evict the pages that are read again; it is kept under the version
  // read with it (in the same statement), and a failed read (null) is not kept.
  const pages = deps.cachedPages
    ? createVersionedCache<CachedPage | null, string>({
        maxEntries: deps.cachedPages,
        keepFromSecondComputation: true,
        keep: (page) => page !== null,
        versionOf: (page) => page!.version
      })
    : null

  // Requests of one scope share version reads: at most one runs at a time, and every request that
  // arrives meanwhile waits for the next one, which starts when the running one ends (or, when none
  // runs, on the next turn of the event loop, after all requests of this turn arrived). A read
  // always starts after the request arrived, so it sees every write committed before it: as fresh
  // as a read per request, with at most one round trip to PostgreSQL in flight per scope.
  const versionReads = new Map<string, { running: Promise<string> | null; next: Promise<string> | null }>()
  function currentVersion(scope: MemoryScopeKey): Promise<string> {
    const key = `${scope.projectId}\n${scope.tenantId}`
    let reads = versionReads.get(key)
    if (reads === undefined) {
      reads = { running: null, next: null }
      versionReads.set(key, reads)
    }
    if (reads.next !== null) return reads.next
    const state = reads
    const turn =
      state.running !== null
        ? state.running.then(
            () => undefined,
            () => undefined
          )
        : new Promise<void>((resolve) => setImmediate(resolve))
    const next = turn.then(() => {
      const running = repository.version(scope)
      state.next = null
      state.running = running
      const settle = () => {
        if (state.running !== running) return
        state.running = null
        if (state.next === null) versionReads.delete(key)
      }
      running.then(settle, settle)
      return running
    })
    state.next = next
    return next
  }

  const { scopeDigestOf, limitsDigestOf } = createReadDigests()
  const pageContexts = createPageContexts()

  async function search(scope: MemoryScope, consumer: MemoryConsumer, params: MemoryQueryParams): Promise<MemoryReadView> {
    const parsed = parseMemoryQuery(params)
    if (!parsed) return hold('INVALID_REQUEST', consumer, scope)
    const limits: MemoryReadLimits = { ...baseLimits, maxEntries: Math.min(baseLimits.maxEntries, parsed.limit ?? baseLimits.maxEntries) }
    const scopeDigest = scopeDigestOf(scope)
    const queryDigest = digestOf(parsed.filter)
    const limitsDigest = limitsDigestOf(limits)

    let offset = 0
    let expectedRevision: string | null = null
    if (parsed.cursor !== null) {
      const cursor = sealer.open(CURSOR_PREFIX, parsed.cursor)
      if (
        !cursor ||
        cursor.schemaVersion !== MEMORY_SCHEMA_VERSION ||
        cursor.consumer !== consumer ||
        cursor.scopeDigest !== scopeDigest ||
        cursor.queryDigest !== queryDigest ||
        cursor.limitsDigest !== limitsDigest ||
        !isInteger(cursor.afterOrdinal) ||
        typeof cursor.selectionRevisionDigest !== 'string'
      ) {
        return hold('CURSOR_INVALID', consumer, scope)
      }
      offset = cursor.afterOrdinal
      expectedRevision = cursor.selectionRevisionDigest
    }

    const context = pageContexts.contextOf(consumer, scope, limits, scopeDigest, limitsDigest)
    let read: CachedPage | null
    if (pages) {
      // The context names consumer, scope and limits (its serial is never reused), so the key is short.
      const pageKey = `${context.serial}\n${queryDigest}\n${offset}`
      let version: string
      try {
        version = await currentVersion(scopeKeyOf(scope))
      } catch (error) {
        deps.onQueryFailed?.(error)
        return hold('QUERY_FAILED', consumer, scope)
      }
      // Callers that miss the same page at the same version wait for one read (after a write, a busy scope would
      // otherwise rank it once per caller).
      read = await pages.get(pageKey, version, () => readPage(context, parsed, queryDigest, offset, version))
    } else {
      read = await readPage(context, parsed, queryDigest, offset, null)
    }
    if (read === null) return hold('QUERY_FAILED', consumer, scope)
    if (expectedRevision !== null && expectedRevision !== read.selectionRevisionDigest) return hold('CURSOR_STALE', consumer, scope)
    return read.view
  }

  /** One page ranked and assembled, with the version it was read at; null when the query failed (reported). */
  async function readPage(
    context: PageContext,
    parsed: ParsedMemoryQuery,
    queryDigest: string,
    offset: number,
    knownVersion: string | null
  ): Promise<CachedPage | null> {
    const { consumer, scope, limits, scopeDigest } = context
    const reasons = parsed.filter.terms.length > 0 ? QUERY_MATCH_REASONS : PREFERRED_LATEST_REASONS
    // Every hit read costs its whole row, and most pages end long before maxCandidates hits: read a
    // first share, and the whole window (again in one statement) only when the page used all of it.
    const window = limits.maxCandidates + 1
    const firstShare = Math.min(window, 2 * limits.maxEntries + 1)
    let read: { page: RankedPage; selectionRevisionDigest: string; assembled: AssembledPage } | undefined
    for (const size of firstShare < window ? [firstShare, window] : [window]) {
      let page: RankedPage
      try {
        page = await searchPage(scopeKeyOf(scope), parsed.filter, offset, size, knownVersion)
      } catch (error) {
        deps.onQueryFailed?.(error)
        return null
      }
      // A cursor continues only the ranking that made it: one made by SQL is stale once the term index ranks.
      const selectionRevisionDigest = pageContexts.selectionDigestOf(context, page.ranking, page.snapshot)
      const assembled = assemblePage(page.hits, limits, reasons, (rendered) =>
        detailRefOf(rendered, consumer, scopeDigest, context.detailRefKey)
      )
      read = { page, selectionRevisionDigest, assembled }
      if (assembled.ended || page.hits.length < size) break
    }
    const { page, selectionRevisionDigest } = read!
    const view = viewOf(
      read!,
      context,
      { consumer, scope, limits, selectionRevisionDigest, scopeDigest, queryDigest, limitsDigest: context.limitsDigest },
      offset
    )
    return { version: page.version, selectionRevisionDigest, view }
  }

  /**
   * The sealed reference to an entry's detail: `{schemaVersion, consumer, scopeDigest, id, candidateDigest}` names
   * the entry at its revision for one consumer and scope, and nothing of the query, so it is made once per rendering
   * (kept with it for every later page that defers the entry). The detail read checks each of these fields.
   */
  function detailRefOf(rendered: RenderedEntry, consumer: MemoryConsumer, scopeDigest: string, key: string): string {
    // `key` (consumer and scope) is one string per consumer and scope, so a rendering holds no copy of it.
    if (rendered.detailRefKey === key) return rendered.detailRef!
    let ref = rendered.otherDetailRefs?.get(key)
    if (ref === undefined) {
      // Its canonical JSON, keys in order.
      ref = sealer.sealCanonical(
        DETAIL_PREFIX,
        `{"candidateDigest":${JSON.stringify(rendered.candidateDigest)},"consumer":${JSON.stringify(consumer)},` +
          `"id":${JSON.stringify(rendered.id)},"schemaVersion":${JSON.stringify(MEMORY_SCHEMA_VERSION)},` +
          `"scopeDigest":${JSON.stringify(scopeDigest)}}`
      )
      if (rendered.detailRefKey === null) {
        rendered.detailRefKey = key
        rendered.detailRef = ref
      } else (rendered.otherDetailRefs ??= new Map()).set(key, ref)
    }
    return ref
  }

  /** Word searches from the scope's term index (in SQL for a scope too large for it); the rest in SQL. */
  async function searchPage(
    scope: MemoryScopeKey,
    filter: ParsedMemoryQuery['filter'],
    offset: number,
    size: number,
    knownVersion: string | null
  ): Promise<RankedPage> {
    if (indexed && filter.terms.length > 0) {
      // The version this request read first (a retry reads a fresh one).
      let known = knownVersion
      const version = () => {
        const first = known
        known = null
        return first !== null ? Promise.resolve(first) : currentVersion(scope)
      }
      const page = await indexed.search(scope, filter, offset, size, version)
      if (page) return page
    }
    return rankedPageOf(await repository.search(scope, filter, offset, size))
  }

  function viewOf(
    { page, assembled }: { page: RankedPage; assembled: AssembledPage },
    context: PageContext,
    base: Omit<AvailableView, 'state' | 'candidates' | 'entries' | 'deferred' | 'nextCursor'>,
    offset: number
  ): MemoryReadView {
    if (page.hits.length === 0) {
      const absent: AbsentView = { state: 'ABSENT', ...base, candidates: [], entries: [], deferred: [], nextCursor: null }
      return absent
    }
    if (assembled.consumed === 0) return hold('RENDER_LIMIT_EXCEEDED', base.consumer, base.scope)
    const last = page.hits[assembled.consumed - 1]!
    const nextCursor =
      assembled.consumed < page.hits.length
        ? sealer.sealCanonical(
            CURSOR_PREFIX,
            cursorJson({
              afterId: last.rendered.id,
              afterOrdinal: offset + assembled.consumed,
              afterRank: last.relevance,
              anchorCandidateDigest: last.rendered.candidateDigest,
              consumer: base.consumer,
              limitsDigest: base.limitsDigest,
              queryDigest: base.queryDigest,
              scopeDigest: base.scopeDigest,
              selectionRevisionDigest: base.selectionRevisionDigest
            })
          )
        : null
    // The lists are getters that read them back from the page's JSON (view-body.ts): the HTTP view is written from
    // the texts alone, and objects made per hit for every page outlived the young generation under concurrent searches.
    const fields = { state: 'AVAILABLE' as const, ...base }
    defineListGetters(fields)
    const available = fields as typeof fields & Pick<AvailableView, 'candidates' | 'entries' | 'deferred' | 'nextCursor'>
    available.nextCursor = nextCursor
    // What JSON.stringify of the body gives (same keys in the same order), from the items' texts made with the page.
    // Head and foot as one flat string each (see page-body.ts); a cursor is its prefix and base64url (no escaping).
    const foot = nextCursor === null ? '],"nextCursor":null}}' : ['],"nextCursor":"', nextCursor, '"}}'].join('')
    const parts = pageParts(assembled, viewHead(context, base.selectionRevisionDigest, base.queryDigest), foot)
    attachBody(available, parts)
    return available
  }

  async function detail(
    scope: MemoryScope,
    consumer: MemoryConsumer,
    v: QueryValue | undefined,
    ref: QueryValue | undefined
  ): Promise<MemoryDetailView> {
    if (v !== '1' || typeof ref !== 'string' || ref === '') return hold('INVALID_REQUEST', consumer, scope)
    const payload = sealer.open(DETAIL_PREFIX, ref)
    if (
      !payload ||
      payload.schemaVersion !== MEMORY_SCHEMA_VERSION ||
      payload.consumer !== consumer ||
      payload.scopeDigest !== scopeDigestOf(scope) ||
      !isInteger(payload.id)
    ) {
      return hold('DETAIL_REFERENCE_INVALID', consumer, scope)
    }
    let row
    try {
      row = await repository.get(scopeKeyOf(scope), payload.id)
    } catch (error) {
      deps.onQueryFailed?.(error)
      return hold('QUERY_FAILED', consumer, scope)
    }
    if (!row || candidateDigestOf(row) !== payload.candidateDigest)
      return { ...hold('DETAIL_CHANGED', consumer, scope), requiredIds: [payload.id] }
    return { state: 'AVAILABLE', consumer, scope, entry: entryWire(row), contentDigest: sha256Digest(row.content) }
  }

  /** The array answer of `GET /api/memory/search?q=` (no `v`): entries on success, never an empty array for a held or failed read. */
  async function legacySearch(scope: MemoryScope, q: QueryValue | undefined): Promise<LegacySearchOutcome> {
    if (q === undefined || (typeof q === 'string' && q.trim() === '')) return { kind: 'ok', items: [] }
    const view = await search(scope, 'api', { v: '1', q })
    if (view.state === 'HOLD') return view.reasonCode === 'QUERY_FAILED' ? { kind: 'unavailable' } : { kind: 'held', view }
    if (view.state === 'ABSENT') return { kind: 'ok', items: [] }
    // Every hit deferred: an empty array would claim "no match" for a read that was only too large.
    if (view.entries.length === 0) return { kind: 'held', view: hold('RENDER_LIMIT_EXCEEDED', 'api', scope) }
    return { kind: 'ok', items: view.entries.map(({ entry, relevance }) => ({ entry, relevance })) }
  }

  return { search, bodyOf, bodyText, detail, legacySearch }
}
export type MemoryReadService = ReturnType<typeof createMemoryReadService>
