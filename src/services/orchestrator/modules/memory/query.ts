import type { MemorySearchFilter } from '../../state/memory.repository.js'

/** A query parameter as it arrives: a string, or an array when it was repeated (`?limit=1&limit=2`). */
export type QueryValue = string | string[]

/** The raw v1 query parameters (validated here so a bad one is a HOLD, not a 400). */
export interface MemoryQueryParams {
  v?: QueryValue
  q?: QueryValue
  type?: QueryValue
  status?: QueryValue
  sprint_min?: QueryValue
  mode?: QueryValue
  limit?: QueryValue
  cursor?: QueryValue
}

type SingleParams = { [K in keyof MemoryQueryParams]?: string }
// Only these are read; any other parameter is ignored, repeated or not (no parameter selects a scope).
const KNOWN_PARAMS: ReadonlyArray<keyof MemoryQueryParams> = ['v', 'q', 'type', 'status', 'sprint_min', 'mode', 'limit', 'cursor']

export interface ParsedMemoryQuery {
  filter: MemorySearchFilter
  limit: number | null
  cursor: string | null
}

const MAX_QUERY_CHARS = 2000
const MAX_TERMS = 32
const MAX_TERM_CHARS = 64
const MAX_LIST_ITEMS = 20
const LIST_ITEM = /^[A-Za-z0-9_.:-]{1,64}$/
const WORD = /[\p{L}\p{N}]+/gu

/**
 * The searchable words of a query: letters and digits, lower-cased, each once (so the full-text syntax of neither
 * database can be injected).
 */
export function searchTerms(q: string): string[] | null {
  const words = [...new Set(q.normalize('NFKC').toLowerCase().match(WORD) ?? [])]
  if (words.length > MAX_TERMS || words.some((w) => w.length > MAX_TERM_CHARS)) return null
  return words
}

function list(value: string | undefined): string[] | null {
  if (value === undefined || value.trim() === '') return []
  const items = [
    ...new Set(
      value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
    )
  ].sort()
  return items.length <= MAX_LIST_ITEMS && items.every((item) => LIST_ITEM.test(item)) ? items : null
}

function nonNegativeInteger(value: string | undefined, positive: boolean): number | null | undefined {
  if (value === undefined) return undefined
  if (!(positive ? /^[1-9][0-9]{0,8}$/ : /^[0-9]{1,9}$/).test(value)) return null
  return Number(value)
}

/**
 * The filter of a v1 read, or null when a parameter is invalid (→ HOLD INVALID_REQUEST): a `v`
 * other than 1, a malformed value, or a repeated parameter (it has no one value). A bare `?v=1`
 * matches every entry.
 */
export function parseMemoryQuery(raw: MemoryQueryParams): ParsedMemoryQuery | null {
  if (KNOWN_PARAMS.some((name) => Array.isArray(raw[name]))) return null
  const params = raw as SingleParams
  if (params.v !== '1') return null
  const q = params.q ?? ''
  if (q.length > MAX_QUERY_CHARS) return null
  const terms = searchTerms(q)
  const types = list(params.type)
  const statuses = list(params.status)
  const sprintMin = nonNegativeInteger(params.sprint_min, false)
  const limit = nonNegativeInteger(params.limit, true)
  const mode = params.mode ?? 'or'
  if (terms === null || types === null || statuses === null || sprintMin === null || limit === null || (mode !== 'and' && mode !== 'or'))
    return null
  if (params.cursor !== undefined && params.cursor === '') return null
  return {
    // Keys in sorted order: its digest (canonical JSON) is made per search.
    filter: { mode, sprintMin: sprintMin ?? null, statuses, terms, types },
    limit: limit ?? null,
    cursor: params.cursor ?? null
  }
}
