import { canonicalJson, sha256Digest } from './canonical.js'
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
import type { MemoryHit } from '../../state/memory.repository.js'

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

export function candidateOf(
  hit: MemoryHit,
  recordBytes = Buffer.byteLength(canonicalJson(entryWire(hit))),
  contentLines = lineCount(hit.content)
): MemoryCandidate {
  return {
    id: hit.id,
    type: hit.type,
    source: hit.source,
    titlePreview: preview(hit.title, TITLE_PREVIEW),
    summaryPreview: hit.summary === null ? null : preview(hit.summary, SUMMARY_PREVIEW),
    status: hit.status,
    priority: hit.priority,
    sprintId: hit.sprint_id,
    sprintOrdinal: hit.sprint_num,
    language: hit.lang,
    tenantId: hit.tenant_id,
    createdAt: hit.created_at,
    updatedAt: hit.updated_at,
    contentByteLength: Buffer.byteLength(hit.content),
    contentLineCount: contentLines,
    recordByteLengthFloor: recordBytes,
    relevance: hit.relevance,
    candidateDigest: candidateDigestOf(hit)
  }
}

export interface AssembledPage {
  candidates: MemoryCandidate[]
  entries: MemoryReadEntry[]
  deferred: MemoryDeferred[]
  /**
   * `JSON.stringify` of each item of the three lists, made while the page is filled (an entry's text is what its
   * byte budget is measured on), so the view's JSON is put together from them instead of serialising 37 KB again.
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
  hits: readonly MemoryHit[],
  limits: MemoryReadLimits,
  reasons: EntryReason[],
  detailRefOf: (hit: MemoryHit, candidateDigest: string) => string
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
    const entry = entryWire(hit)
    const entryJson = JSON.stringify(entry)
    const recordBytes = Buffer.byteLength(entryJson)
    const contentLines = lineCount(hit.content)
    const bytes = recordBytes + ENTRY_BYTE_OVERHEAD
    const lines = contentLines + ENTRY_LINE_OVERHEAD
    const candidate = candidateOf(hit, recordBytes, contentLines)
    const candidateJson = JSON.stringify(candidate)
    const reasonCode: DeferralReason | null =
      page.entries.length >= limits.maxEntries ? 'ENTRY_LIMIT' : bytes > bytesLeft ? 'BYTE_LIMIT' : lines > linesLeft ? 'LINE_LIMIT' : null
    if (reasonCode === null) {
      bytesLeft -= bytes
      linesLeft -= lines
      const contentDigest = sha256Digest(hit.content)
      page.entries.push({ entry, relevance: hit.relevance, contentDigest, reasons })
      page.json.entries.push(
        `{"entry":${entryJson},"relevance":${JSON.stringify(hit.relevance)},"contentDigest":"${contentDigest}","reasons":${reasonsJson}}`
      )
    } else {
      const detailRef = detailRefOf(hit, candidate.candidateDigest)
      const deferredBytes = Buffer.byteLength(String(hit.id)) + Buffer.byteLength(detailRef) + DEFERRED_BYTE_OVERHEAD
      if (deferredBytes > bytesLeft || linesLeft < 1) {
        page.ended = true
        break
      }
      bytesLeft -= deferredBytes
      linesLeft -= 1
      page.deferred.push({ candidate, reasons, reasonCode, detailRef })
      page.json.deferred.push(
        `{"candidate":${candidateJson},"reasons":${reasonsJson},"reasonCode":"${reasonCode}","detailRef":${JSON.stringify(detailRef)}}`
      )
    }
    page.candidates.push(candidate)
    page.json.candidates.push(candidateJson)
    page.consumed++
  }
  if (page.consumed >= limits.maxCandidates) page.ended = true
  return page
}
