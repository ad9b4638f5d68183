import { sha256Digest } from './canonical.js'
import {
  BYTE_RESERVE,
  DEFERRED_BYTE_OVERHEAD,
  ENTRY_BYTE_OVERHEAD,
  ENTRY_LINE_OVERHEAD,
  LINE_RESERVE,
  type DeferralReason,
  type EntryReason,
  type MemoryEntryWire,
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
 * What a page needs of one entry at one revision: its JSON (whose byte length is its budget), its candidate's JSON
 * around the query's relevance, and digests. It depends on the row alone, so the term index keeps it per revision for
 * every query that ranks the entry (indexed-search.ts); the SQL ranking makes it per hit. Texts and numbers only:
 * the objects a page is made of come from its JSON when a caller asks for them (memory-read.service.ts). As objects,
 * the renderings of 50,000 entries were ~900,000 heap objects that every full collection marked (its pauses were a
 * search's p99).
 */
export interface RenderedEntry {
  id: number
  revision: number
  /** The row's update time (PostgreSQL reuses a rendering only for the same revision and update time). */
  updatedAt: string
  /**
   * `{"entry":`, the entry's JSON and `,"relevance":` as UTF-8: an entry item up to its relevance, in one piece (the
   * JSON's length is the record's bytes; `entryJsonOf` gives it alone). The texts a page is written from are kept
   * encoded: as strings, encoding ~35 KB into the response's buffer per page was ~14 % of a search; copying bytes is
   * a memcpy, and each piece fewer is one object less to reach per hit.
   */
  entryItemHead: Buffer
  recordBytes: number
  contentLines: number
  /** Characters of the id's decimal digits (a deferred hit's budget counts them). */
  idChars: number
  /** The candidate's JSON up to its relevance value, and from the comma after it to the end, as UTF-8. */
  candidateHead: Buffer
  candidateTail: Buffer
  /** What an entry item holds between its relevance and its reasons: `,"contentDigest":"…","reasons":`. */
  contentDigestJson: Buffer
  candidateDigest: string
  /**
   * Its sealed detail reference for the consumer and scope (`detailRefKey`) that first deferred it, and those of any
   * others: a reference names the entry, not the query (an HMAC per deferred hit was ~13 % of a page).
   */
  detailRefKey: string | null
  detailRef: string | null
  otherDetailRefs: Map<string, string> | null
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

/** The JSON of a candidate without its relevance and digest: keys in the order of `MemoryCandidate`. */
function candidateBaseJson(row: MemoryEntry, contentLines: number, recordBytes: number): string {
  return JSON.stringify({
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
  })
}

const ENTRY_ITEM_START = '{"entry":'
const ENTRY_ITEM_RELEVANCE = ',"relevance":'

export function renderEntry(row: MemoryEntry): RenderedEntry {
  const entryJson = JSON.stringify(entryWire(row))
  const contentLines = lineCount(row.content)
  const recordBytes = Buffer.byteLength(entryJson)
  const candidateDigest = candidateDigestOf(row)
  const candidateHead = `${candidateBaseJson(row, contentLines, recordBytes).slice(0, -1)},"relevance":`
  const candidateTail = `,"candidateDigest":${JSON.stringify(candidateDigest)}}`
  const contentDigest = sha256Digest(row.content)
  const contentDigestJson = `,"contentDigest":${JSON.stringify(contentDigest)},"reasons":`
  // The texts in one allocation (a slice of Node's shared pool when small), viewed as four buffers.
  const itemEnd = ENTRY_ITEM_START.length + recordBytes + ENTRY_ITEM_RELEVANCE.length
  const headEnd = itemEnd + Buffer.byteLength(candidateHead)
  const tailEnd = headEnd + Buffer.byteLength(candidateTail)
  const bytes = Buffer.allocUnsafe(tailEnd + Buffer.byteLength(contentDigestJson))
  bytes.write(ENTRY_ITEM_START, 0)
  bytes.write(entryJson, ENTRY_ITEM_START.length)
  bytes.write(ENTRY_ITEM_RELEVANCE, itemEnd - ENTRY_ITEM_RELEVANCE.length)
  bytes.write(candidateHead, itemEnd)
  bytes.write(candidateTail, headEnd)
  bytes.write(contentDigestJson, tailEnd)
  return {
    id: row.id,
    revision: row.revision,
    updatedAt: row.updated_at,
    entryItemHead: bytes.subarray(0, itemEnd),
    recordBytes,
    contentLines,
    idChars: String(row.id).length,
    candidateHead: bytes.subarray(itemEnd, headEnd),
    candidateTail: bytes.subarray(headEnd, tailEnd),
    contentDigestJson: bytes.subarray(tailEnd),
    candidateDigest,
    detailRefKey: null,
    detailRef: null,
    otherDetailRefs: null
  }
}

/** The entry's JSON (UTF-8) of a rendering. */
export function entryJsonOf(rendered: RenderedEntry): Buffer {
  return rendered.entryItemHead.subarray(ENTRY_ITEM_START.length, ENTRY_ITEM_START.length + rendered.recordBytes)
}

/** The reasons of a page's items and the texts around them in its JSON, made once per kind of read. */
export interface PageReasons {
  /** What ends an entry item after its content digest: the reasons and `}` (`entryEndMore`: and the comma after it). */
  entryEnd: string
  entryEndMore: string
  /** What follows a deferred hit's candidate, per deferral reason: its reasons, its reason code and `"detailRef":"`. */
  deferredMiddle: Record<DeferralReason, string>
}
export const QUERY_MATCH_REASONS = pageReasons(['QUERY_MATCH'])
export const PREFERRED_LATEST_REASONS = pageReasons(['PREFERRED_LATEST'])
function pageReasons(list: EntryReason[]): PageReasons {
  const json = JSON.stringify(list)
  const middle = (reasonCode: DeferralReason) => `,"reasons":${json},"reasonCode":"${reasonCode}","detailRef":"`
  return {
    entryEnd: `${json}}`,
    entryEndMore: `${json}},`,
    deferredMiddle: { ENTRY_LIMIT: middle('ENTRY_LIMIT'), BYTE_LIMIT: middle('BYTE_LIMIT'), LINE_LIMIT: middle('LINE_LIMIT') }
  }
}

export interface AssembledPage {
  /** How many hits the page used (as entries or deferred); the next page starts after them. */
  consumed: number
  /** The page stopped at a limit; when false it used every hit it was given and more might have joined it. */
  ended: boolean
  entryCount: number
  /** Per hit used, in rank order: its rendering, its relevance's JSON, and why it was deferred (null: an entry). */
  rendered: RenderedEntry[]
  relevanceJson: string[]
  deferral: Array<DeferralReason | null>
  /** The detail reference of each deferred hit (null for an entry). */
  detailRefs: Array<string | null>
  reasons: PageReasons
}

/**
 * Fills one page in rank order: a hit that fits the remaining byte and line budgets is an entry
 * while the page has fewer than maxEntries; any other hit is deferred with a detail reference
 * (never cut) and its reason (ENTRY_LIMIT once the entries are full, else BYTE_LIMIT or
 * LINE_LIMIT), and later, smaller hits may still fit. The page ends after maxCandidates hits or
 * when not even a deferral fits any more. Every hit is thus on exactly one page, as an entry or as
 * a deferral. The page's JSON is written from this by page-body.ts.
 */
export function assemblePage(
  hits: readonly RankedHit[],
  limits: MemoryReadLimits,
  reasons: PageReasons,
  detailRefOf: (hit: RenderedEntry) => string
): AssembledPage {
  let bytesLeft = limits.maxBytes - BYTE_RESERVE
  let linesLeft = limits.maxLines - LINE_RESERVE
  const usable = Math.min(hits.length, limits.maxCandidates)
  // Sized once (pushing grew each list two or three times per page); cut to what the page used at the end.
  const page: AssembledPage = {
    consumed: 0,
    ended: false,
    entryCount: 0,
    rendered: new Array<RenderedEntry>(usable),
    relevanceJson: new Array<string>(usable),
    deferral: new Array<DeferralReason | null>(usable),
    detailRefs: new Array<string | null>(usable),
    reasons
  }
  for (let at = 0; at < usable; at++) {
    const hit = hits[at]!
    const rendered = hit.rendered
    const bytes = rendered.recordBytes + ENTRY_BYTE_OVERHEAD
    const lines = rendered.contentLines + ENTRY_LINE_OVERHEAD
    const reasonCode: DeferralReason | null =
      page.entryCount >= limits.maxEntries ? 'ENTRY_LIMIT' : bytes > bytesLeft ? 'BYTE_LIMIT' : lines > linesLeft ? 'LINE_LIMIT' : null
    let detailRef: string | null = null
    if (reasonCode === null) {
      bytesLeft -= bytes
      linesLeft -= lines
      page.entryCount++
    } else {
      detailRef = detailRefOf(rendered)
      // An id's digits and a reference (its prefix and base64url) are ASCII: their lengths are their bytes.
      const deferredBytes = rendered.idChars + detailRef.length + DEFERRED_BYTE_OVERHEAD
      if (deferredBytes > bytesLeft || linesLeft < 1) {
        page.ended = true
        break
      }
      bytesLeft -= deferredBytes
      linesLeft -= 1
    }
    const used = page.consumed++
    page.rendered[used] = rendered
    page.relevanceJson[used] = JSON.stringify(hit.relevance)
    page.deferral[used] = reasonCode
    page.detailRefs[used] = detailRef
  }
  if (page.consumed >= limits.maxCandidates) page.ended = true
  page.rendered.length = page.relevanceJson.length = page.deferral.length = page.detailRefs.length = page.consumed
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
