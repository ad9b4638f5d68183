import type { BodyPart } from '../../../../core/http/body-pool.js'
import type { AssembledPage } from './page.js'

/**
 * The parts whose concatenation is a page's JSON: `head`, the three lists (candidates, entries, deferred) and `foot`,
 * in one array of its exact size. The items are written from the bytes kept with each rendering and from constants and
 * the page's own short texts (relevance, reasons, detail references) side by side, never joined into new strings: a
 * template string per item is a rope, flattened into a copy when the body is written — ~9 KB per page that, under
 * concurrent searches, V8 took for long-lived and allocated straight in the old generation (measured with its sampling
 * heap profiler), so full collections ran every few seconds.
 */
export function pageParts(page: AssembledPage, head: string, foot: string): BodyPart[] {
  const { consumed, entryCount, rendered, relevanceJson, deferral, detailRefs, reasonsJson } = page
  const deferredCount = consumed - entryCount
  const size = 5 + 4 * consumed - (consumed > 0 ? 1 : 0) + 7 * entryCount + 9 * deferredCount
  const parts = new Array<BodyPart>(size)
  let at = 0
  parts[at++] = head
  parts[at++] = '"candidates":['
  for (let i = 0; i < consumed; i++) {
    if (i > 0) parts[at++] = ','
    const item = rendered[i]!
    parts[at++] = item.candidateHead
    parts[at++] = relevanceJson[i]!
    parts[at++] = item.candidateTail
  }
  parts[at++] = '],"entries":['
  let first = true
  for (let i = 0; i < consumed; i++) {
    if (deferral[i] !== null) continue
    const item = rendered[i]!
    parts[at++] = first ? '{"entry":' : ',{"entry":'
    parts[at++] = item.entryBytes
    parts[at++] = ',"relevance":'
    parts[at++] = relevanceJson[i]!
    parts[at++] = item.contentDigestJson
    parts[at++] = reasonsJson
    parts[at++] = '}'
    first = false
  }
  parts[at++] = '],"deferred":['
  first = true
  for (let i = 0; i < consumed; i++) {
    const reasonCode = deferral[i] ?? null
    if (reasonCode === null) continue
    const item = rendered[i]!
    parts[at++] = first ? '{"candidate":' : ',{"candidate":'
    parts[at++] = item.candidateHead
    parts[at++] = relevanceJson[i]!
    parts[at++] = item.candidateTail
    parts[at++] = ',"reasons":'
    parts[at++] = reasonsJson
    parts[at++] = REASON_CODE_JSON[reasonCode]
    // A reference is its prefix and base64url: nothing in it needs escaping in JSON.
    parts[at++] = detailRefs[i]!
    parts[at++] = '"}'
    first = false
  }
  parts[at++] = foot
  if (at !== size) throw new Error(`memory page body: ${at} parts written, ${size} counted`)
  return parts
}

const REASON_CODE_JSON = {
  ENTRY_LIMIT: ',"reasonCode":"ENTRY_LIMIT","detailRef":"',
  BYTE_LIMIT: ',"reasonCode":"BYTE_LIMIT","detailRef":"',
  LINE_LIMIT: ',"reasonCode":"LINE_LIMIT","detailRef":"'
} as const
