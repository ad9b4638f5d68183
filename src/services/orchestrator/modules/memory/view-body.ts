import { joinParts, type BodyPart } from '../../../../core/http/body-pool.js'
import { MEMORY_SCHEMA_VERSION, type AvailableView, type MemoryReadView } from './contract.js'

/**
 * A view's body, on the view itself (not enumerable, so not part of its JSON): the texts of its parts, and its bytes
 * once it is served again. In a WeakMap, every page's texts outlived the young generation (its collections treat a
 * WeakMap's values as reachable): under concurrent searches ~13 KB per page reached the old generation.
 */
const BODY = Symbol('memory view body')
type Lists = Pick<AvailableView, 'candidates' | 'entries' | 'deferred'>
class ViewBody {
  served = 0
  bytes: Buffer | null = null
  lists: Lists | null = null
  constructor(public parts: readonly BodyPart[] | null) {}
}
type WithBody = { [BODY]?: ViewBody }

/** Stores the parts whose concatenation is the JSON of `{schemaVersion, view}`. */
export function attachBody(view: MemoryReadView, parts: readonly BodyPart[]): void {
  Object.defineProperty(view, BODY, { value: new ViewBody(parts) })
}

function bodyStateOf(view: MemoryReadView): ViewBody {
  let body = (view as WithBody)[BODY]
  if (body === undefined) {
    body = new ViewBody([JSON.stringify({ schemaVersion: MEMORY_SCHEMA_VERSION, view })])
    if (Object.isExtensible(view)) Object.defineProperty(view, BODY, { value: body })
  }
  return body
}

/**
 * The JSON of `{schemaVersion, view}` (views are shared and never changed): the texts of its parts, for the caller
 * to write (a route writes them into a pooled buffer), and from its second time on (a kept page served again) bytes
 * kept with the view.
 */
export function bodyOf(view: MemoryReadView): Buffer | readonly BodyPart[] {
  const body = bodyStateOf(view)
  if (body.bytes !== null) return body.bytes
  if (body.served++ === 0) return body.parts!
  body.bytes = joinParts(body.parts!)
  body.parts = null
  return body.bytes
}

/** The body as one string (for the lists as objects, and tests). */
export function bodyText(view: MemoryReadView): string {
  const body = bodyStateOf(view)
  return (body.bytes ?? joinParts(body.parts!)).toString()
}

function listsOf(view: MemoryReadView): Lists {
  const body = bodyStateOf(view)
  return (body.lists ??= (JSON.parse(bodyText(view)) as { view: AvailableView }).view)
}

/**
 * The getters every AVAILABLE view written from texts shares: its lists as objects, read back from its JSON when a
 * caller asks for them (the CLI, the projection, the legacy array). Getters written in the view's literal were new
 * functions per view, which made each view a dictionary of its own, and such a view (with the page's texts on it)
 * outlived young-generation collections: ~275 KB promoted per scavenge on the memory search bench (2026-11-28).
 */
const LIST_GETTERS: PropertyDescriptorMap = {
  candidates: { get: getCandidates, enumerable: true, configurable: true },
  entries: { get: getEntries, enumerable: true, configurable: true },
  deferred: { get: getDeferred, enumerable: true, configurable: true }
}
function getCandidates(this: MemoryReadView) {
  return listsOf(this).candidates
}
function getEntries(this: MemoryReadView) {
  return listsOf(this).entries
}
function getDeferred(this: MemoryReadView) {
  return listsOf(this).deferred
}

/** Defines `candidates`, `entries` and `deferred` on `view` (in that order) as getters of its lists. */
export function defineListGetters(view: object): void {
  Object.defineProperties(view, LIST_GETTERS)
}
