import { sha256Digest } from './canonical.js'
import {
  BYTE_RESERVE,
  DEFERRED_BYTE_OVERHEAD,
  ENTRY_BYTE_OVERHEAD,
  ENTRY_LINE_OVERHEAD,
  LINE_RESERVE,
  type DeferralReason,
  type EntryReason,
  type MemoryCandidate,
  type MemoryDeferred,
  type MemoryEntryWire,
  type MemoryReadEntry,
  type MemoryReadLimits
} from './contract.js'
import type { MemoryEntry } from '../../state/domain.js'
import type { MemorySearchPage } from '../../state/memory.repository.js'

const TITLE_PREVIEW = 120
const SUMMARY_PREVIEW = 240

function preview(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text
}

export function lineCount(text: string): number {
  if (text === '') return 0
  let lines = 1
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++
  return lines
}

/**
 * Keys in sorted order and flat scalar values: `JSON.stringify` of it is its canonical JSON (sorting keys per hit
 * was a share of each search).
 */
export function entryWire(row: MemoryEntry): MemoryEntryWire {
  return {
    content: row.content,
    created_at: row.created_at,
    id: row.id,
    lang: row.lang,
    metadata: row.metadata,
    priority: row.priority,
    source: row.source,
    sprint_id: row.sprint_id,
    sprint_num: row.sprint_num,
    status: row.status,
    summary: row.summary,
    tags: row.tags,
    tenant_id: row.tenant_id,
    title: row.title,
    type: row.type,
    updated_at: row.updated_at
  }
}

/** Changes whenever the entry changes (every write gives it a new revision). */
export function candidateDigestOf(row: Pick<MemoryEntry, 'id' | 'revision' | 'updated_at'>): string {
  // digestOf({ id, revision, updatedAt }) with its canonical JSON written out (keys already in order): one per hit.
  return sha256Digest(
    `{"id":${JSON.stringify(row.id)},"revision":${JSON.stringify(row.revision)},"updatedAt":${JSON.stringify(row.updated_at)}}`
  )
}

/**
 * What a page needs of one entry at one revision: its wire object and JSON (whose byte length is its budget), its
 * candidate without the query's relevance (as an object and as the JSON around the relevance), and digests. It
 * depends on the row alone, so the term index keeps it per revision for every query that ranks the entry
 * (indexed-search.ts); the SQL ranking makes it per hit.
 */
export interface RenderedEntry {
  id: number
  revision: number
  entry: MemoryEntryWire
  entryJson: string
  recordBytes: number
  contentLines: number
  candidateBase: Omit<MemoryCandidate, 'relevance' | 'candidateDigest'>
  /** The candidate's JSON up to its relevance value, and from the comma after it to the end. */
  candidateHead: string
  candidateTail: string
  candidateDigest: string
  /** The content's digest, made when the entry is first on a page as an entry (most hits are only deferred). */
  contentDigest: string | null
  /**
   * Its sealed detail references by consumer and scope digest, made when it is first deferred for them: a reference
   * names the entry, not the query (an HMAC per deferred hit was ~13 % of a page with a different query).
   */
  detailRefs: Map<string, string> | null
}

/**
 * A ranked hit: the query's relevance and the entry's rendering, kept or made from its row when the page first uses
 * it (a page ends before most of its hits) and then handed to `onRendered` (e.g. to keep it). One class, so every hit
 * has one shape (an object literal with a getter per hit cost a sixth of a page's assembly).
 */
export class RankedHit {
  #rendered: RenderedEntry | null
  readonly #row: MemoryEntry | null
  readonly #onRendered: ((rendered: RenderedEntry) => void) | null

  constructor(
    readonly relevance: number,
    rendered: RenderedEntry | null,
    row: MemoryEntry | null = null,
    onRendered: ((rendered: RenderedEntry) => void) | null = null
  ) {
    this.#rendered = rendered
    this.#row = row
    this.#onRendered = onRendered
  }

  get rendered(): RenderedEntry {
    if (this.#rendered === null) {
      this.#rendered = renderEntry(this.#row!)
      this.#onRendered?.(this.#rendered)
    }
    return this.#rendered
  }
}

export function renderEntry(row: MemoryEntry): RenderedEntry {
  const entry = entryWire(row)
  const entryJson = JSON.stringify(entry)
  const contentLines = lineCount(row.content)
  const recordBytes = Buffer.byteLength(entryJson)
  const candidateBase = {
    id: row.id,
    type: row.type,
    source: row.source,
    titlePreview: preview(row.title, TITLE_PREVIEW),
    summaryPreview: row.summary === null ? null : preview(row.summary, SUMMARY_PREVIEW),
    status: row.status,
    priority: row.priority,
    sprintId: row.sprint_id,
    sprintOrdinal: row.sprint_num,
    language: row.lang,
    tenantId: row.tenant_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    contentByteLength: Buffer.byteLength(row.content),
    contentLineCount: contentLines,
    recordByteLengthFloor: recordBytes
  }
  const candidateDigest = candidateDigestOf(row)
  return {
    id: row.id,
    revision: row.revision,
    entry,
    entryJson,
    recordBytes,
    contentLines,
    candidateBase,
    candidateHead: `${JSON.stringify(candidateBase).slice(0, -1)},"relevance":`,
    candidateTail: `,"candidateDigest":${JSON.stringify(candidateDigest)}}`,
    candidateDigest,
    contentDigest: null,
    detailRefs: null
  }
}

/** The candidate of a ranked hit (its JSON is `candidateHead + JSON of the relevance + candidateTail`). */
export function candidateOf(hit: RankedHit): MemoryCandidate {
  // Field by field: spreading the base object took a tenth of a search (V8's slow path for object spread).
  const base = hit.rendered.candidateBase
  return {
    id: base.id,
    type: base.type,
    source: base.source,
    titlePreview: base.titlePreview,
    summaryPreview: base.summaryPreview,
    status: base.status,
    priority: base.priority,
    sprintId: base.sprintId,
    sprintOrdinal: base.sprintOrdinal,
    language: base.language,
    tenantId: base.tenantId,
    createdAt: base.createdAt,
    updatedAt: base.updatedAt,
    contentByteLength: base.contentByteLength,
    contentLineCount: base.contentLineCount,
    recordByteLengthFloor: base.recordByteLengthFloor,
    relevance: hit.relevance,
    candidateDigest: hit.rendered.candidateDigest
  }
}

export interface AssembledPage {
  candidates: MemoryCandidate[]
  entries: MemoryReadEntry[]
  deferred: MemoryDeferred[]
  /**
   * The JSON of each of the three lists' items, comma-separated, as pieces to be written one after the other: most
   * are the texts kept with each entry's rendering, so a page's body is written from them without serialising
   * ~40 KB again or joining (and so copying) the pieces into new strings first.
   */
  json: { candidates: string[]; entries: string[]; deferred: string[] }
  /** How many hits the page used (as entries or deferred); the next page starts after them. */
  consumed: number
  /** The page stopped at a limit; when false it used every hit it was given and more might have joined it. */
  ended: boolean
}

/**
 * Fills one page in rank order: a hit that fits the remaining byte and line budgets is an entry
 * while the page has fewer than maxEntries; any other hit is deferred with a detail reference
 * (never cut) and its reason (ENTRY_LIMIT once the entries are full, else BYTE_LIMIT or
 * LINE_LIMIT), and later, smaller hits may still fit. The page ends after maxCandidates hits or
 * when not even a deferral fits any more. Every hit is thus on exactly one page, as an entry or as
 * a deferral.
 */
export function assemblePage(
  hits: readonly RankedHit[],
  limits: MemoryReadLimits,
  reasons: EntryReason[],
  detailRefOf: (hit: RenderedEntry) => string
): AssembledPage {
  let bytesLeft = limits.maxBytes - BYTE_RESERVE
  let linesLeft = limits.maxLines - LINE_RESERVE
  const page: AssembledPage = {
    candidates: [],
    entries: [],
    deferred: [],
    json: { candidates: [], entries: [], deferred: [] },
    consumed: 0,
    ended: false
  }
  const reasonsJson = JSON.stringify(reasons)
  for (const hit of hits.slice(0, limits.maxCandidates)) {
    const rendered = hit.rendered
    const relevanceJson = JSON.stringify(hit.relevance)
    const bytes = rendered.recordBytes + ENTRY_BYTE_OVERHEAD
    const lines = rendered.contentLines + ENTRY_LINE_OVERHEAD
    const candidate = candidateOf(hit)
    const reasonCode: DeferralReason | null =
      page.entries.length >= limits.maxEntries ? 'ENTRY_LIMIT' : bytes > bytesLeft ? 'BYTE_LIMIT' : lines > linesLeft ? 'LINE_LIMIT' : null
    if (reasonCode === null) {
      bytesLeft -= bytes
      linesLeft -= lines
      const contentDigest = (rendered.contentDigest ??= sha256Digest(rendered.entry.content))
      page.entries.push({ entry: rendered.entry, relevance: hit.relevance, contentDigest, reasons })
      page.json.entries.push(
        page.json.entries.length === 0 ? '{"entry":' : ',{"entry":',
        rendered.entryJson,
        `,"relevance":${relevanceJson},"contentDigest":"${contentDigest}","reasons":${reasonsJson}}`
      )
    } else {
      const detailRef = detailRefOf(rendered)
      const deferredBytes = Buffer.byteLength(String(rendered.id)) + Buffer.byteLength(detailRef) + DEFERRED_BYTE_OVERHEAD
      if (deferredBytes > bytesLeft || linesLeft < 1) {
        page.ended = true
        break
      }
      bytesLeft -= deferredBytes
      linesLeft -= 1
      page.deferred.push({ candidate, reasons, reasonCode, detailRef })
      page.json.deferred.push(
        page.json.deferred.length === 0 ? '{"candidate":' : ',{"candidate":',
        rendered.candidateHead,
        relevanceJson,
        rendered.candidateTail,
        // A reference is its prefix and base64url: nothing in it needs escaping in JSON.
        `,"reasons":${reasonsJson},"reasonCode":"${reasonCode}","detailRef":"${detailRef}"}`
      )
    }
    page.candidates.push(candidate)
    if (page.json.candidates.length > 0) page.json.candidates.push(',')
    page.json.candidates.push(rendered.candidateHead, relevanceJson, rendered.candidateTail)
    page.consumed++
  }
  if (page.consumed >= limits.maxCandidates) page.ended = true
  return page
}

/** A page of ranked hits with the scope's snapshot revision and version it was read at (see MemorySearchPage). */
export interface RankedPage {
  snapshot: number
  version: string
  hits: RankedHit[]
  /** Ranked by the in-memory term index rather than SQL (its order may differ; a cursor names its ranking). */
  ranking?: 'index'
}

/** A page ranked in SQL, each hit rendered from its row. */
export function rankedPageOf(page: MemorySearchPage): RankedPage {
  return { ...page, hits: page.hits.map((hit) => new RankedHit(hit.relevance, null, hit)) }
}
