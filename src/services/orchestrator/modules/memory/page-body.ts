import type { BodyPart } from '../../../../core/http/body-pool.js'
import type { AssembledPage } from './page.js'

/**
 * The parts whose concatenation is a page's JSON: `head`, the three lists (candidates, entries, deferred) and `foot`,
 * in one array of its exact size. The items are written from the bytes kept with each rendering and from constants and
 * the page's own short texts (relevance, detail references) side by side, never joined into new strings: a template
 * string per item is a rope, flattened into a copy when the body is written — ~9 KB per page that, under concurrent
 * searches, V8 took for long-lived and allocated straight in the old generation (measured with its sampling heap
 * profiler), so full collections ran every few seconds. Separators are folded into the constants around them: each
 * part is one more object to reach when the body is copied.
 */
export function pageParts(page: AssembledPage, head: string, foot: string): BodyPart[] {
  const { consumed, entryCount, rendered, relevanceJson, deferral, detailRefs, reasons } = page
  const deferredCount = consumed - entryCount
  const size = 5 + 4 * consumed - (consumed > 0 ? 1 : 0) + 4 * entryCount + 6 * deferredCount + (deferredCount > 0 ? 1 : 0)
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
  let left = entryCount
  for (let i = 0; i < consumed && left > 0; i++) {
    if (deferral[i] !== null) continue
    const item = rendered[i]!
    parts[at++] = item.entryItemHead
    parts[at++] = relevanceJson[i]!
    parts[at++] = item.contentDigestJson
    parts[at++] = --left > 0 ? reasons.entryEndMore : reasons.entryEnd
  }
  parts[at++] = '],"deferred":['
  left = deferredCount
  if (left > 0) parts[at++] = '{"candidate":'
  for (let i = 0; i < consumed && left > 0; i++) {
    const reasonCode = deferral[i] ?? null
    if (reasonCode === null) continue
    const item = rendered[i]!
    parts[at++] = item.candidateHead
    parts[at++] = relevanceJson[i]!
    parts[at++] = item.candidateTail
    parts[at++] = reasons.deferredMiddle[reasonCode]
    // A reference is its prefix and base64url: nothing in it needs escaping in JSON.
    parts[at++] = detailRefs[i]!
    parts[at++] = --left > 0 ? '"},{"candidate":' : '"}'
  }
  parts[at++] = foot
  if (at !== size) throw new Error(`memory page body: ${at} parts written, ${size} counted`)
  return parts
}
