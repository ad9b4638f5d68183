import { createLru } from '../../../../core/lru.js'
import { digestOf } from './canonical.js'
import { MEMORY_SCHEMA_VERSION, type MemoryConsumer, type MemoryReadLimits, type MemoryScope } from './contract.js'

/**
 * What every page read for one consumer, scope and limits shares, made once: the scope and limits as the views show
 * them, the start of their JSON, the string that keys the detail references of a consumer and scope, and the latest
 * selection digest (it changes only with the scope's snapshot). Serialising these and digesting the selection were
 * ~5 % of a search; only the query's digest is new per query.
 */
export interface PageContext {
  consumer: MemoryConsumer
  scope: MemoryScope
  limits: MemoryReadLimits
  scopeDigest: string
  limitsDigest: string
  /** `{"schemaVersion":1,"view":{"state":"AVAILABLE","consumer":…,"scope":…,"limits":…` */
  headStart: string
  /** Consumer and scope (`consumer\nscopeDigest`): a rendering keeps its detail reference under the first such key it saw. */
  detailRefKey: string
  selection: { ranking: string | undefined; snapshot: number; digest: string } | null
  /** Names this context among those made by this process (no two share it): kept pages are keyed by it. */
  serial: number
}

export function createPageContexts(size = 256) {
  const contexts = createLru<string, PageContext>(size)
  let made = 0
  // Consecutive reads mostly share their context: the last one is checked first (a key string and its lookup per read
  // were ~1 % of a search).
  let last: PageContext | null = null

  function contextOf(
    consumer: MemoryConsumer,
    scope: MemoryScope,
    limits: MemoryReadLimits,
    scopeDigest: string,
    limitsDigest: string
  ): PageContext {
    if (last !== null && last.consumer === consumer && last.scopeDigest === scopeDigest && last.limitsDigest === limitsDigest) return last
    const key = `${consumer}\n${scopeDigest}\n${limitsDigest}`
    let context = contexts.get(key)
    if (context === undefined) {
      // The fields the digests cover, in the order the views have always shown them.
      const shownScope: MemoryScope = { kind: scope.kind, projectId: scope.projectId, tenantId: scope.tenantId }
      const shownLimits: MemoryReadLimits = {
        maxEntries: limits.maxEntries,
        maxCandidates: limits.maxCandidates,
        maxBytes: limits.maxBytes,
        maxLines: limits.maxLines
      }
      const fields = JSON.stringify({ consumer, scope: shownScope, limits: shownLimits })
      context = {
        consumer,
        scope: shownScope,
        limits: shownLimits,
        scopeDigest,
        limitsDigest,
        headStart: [`{"schemaVersion":${MEMORY_SCHEMA_VERSION},"view":{"state":"AVAILABLE",`, fields.slice(1, -1)].join(''),
        detailRefKey: [consumer, scopeDigest].join('\n'),
        selection: null,
        serial: ++made
      }
      contexts.set(key, context)
    }
    last = context
    return context
  }

  /** The digest naming a page's selection: its ranking (a cursor continues only the ranking that made it), scope and snapshot. */
  function selectionDigestOf(context: PageContext, ranking: string | undefined, snapshot: number): string {
    const known = context.selection
    if (known !== null && known.ranking === ranking && known.snapshot === snapshot) return known.digest
    const digest = digestOf({ ...(ranking ? { ranking } : {}), scopeDigest: context.scopeDigest, snapshot })
    context.selection = { ranking, snapshot, digest }
    return digest
  }

  return { contextOf, selectionDigestOf }
}

/** The JSON of a view's fields before its lists (what `JSON.stringify` of the view writes), ending in a comma. */
export function viewHead(context: PageContext, selectionRevisionDigest: string, queryDigest: string): string {
  // Digests are `sha256:` and hex: nothing in them needs escaping.
  return [
    context.headStart,
    ',"selectionRevisionDigest":"',
    selectionRevisionDigest,
    '","scopeDigest":"',
    context.scopeDigest,
    '","queryDigest":"',
    queryDigest,
    '","limitsDigest":"',
    context.limitsDigest,
    '",'
  ].join('')
}

export interface CursorFields {
  afterId: number
  afterOrdinal: number
  afterRank: number
  anchorCandidateDigest: string
  consumer: MemoryConsumer
  limitsDigest: string
  queryDigest: string
  scopeDigest: string
  selectionRevisionDigest: string
}

/**
 * The canonical JSON of a cursor's payload (keys in sorted order, with the schema version). Written out: copying the
 * fields into a payload object and reading it back by a loop over the key names was ~3 % of a memory search.
 */
export function cursorJson(c: CursorFields): string {
  const json = JSON.stringify
  return (
    `{"afterId":${json(c.afterId)},"afterOrdinal":${json(c.afterOrdinal)},"afterRank":${json(c.afterRank)},` +
    `"anchorCandidateDigest":${json(c.anchorCandidateDigest)},"consumer":${json(c.consumer)},` +
    `"limitsDigest":${json(c.limitsDigest)},"queryDigest":${json(c.queryDigest)},"schemaVersion":${json(MEMORY_SCHEMA_VERSION)},` +
    `"scopeDigest":${json(c.scopeDigest)},"selectionRevisionDigest":${json(c.selectionRevisionDigest)}}`
  )
}
