import type { TSchema } from 'typebox'
import type { App } from '../../../core/http/server.js'

/** Properties whose keys are user data (kept exactly as sent). */
const OPAQUE = new Set(['ExtraData'])

/** Lower-cased property name → canonical PascalCase name, for every property of the given schemas. */
function collectPropertyNames(schemas: TSchema[], names: Map<string, string>): void {
  const seen = new Set<unknown>()
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return
    seen.add(node)
    const schema = node as Record<string, unknown>
    const properties = schema.properties as Record<string, unknown> | undefined
    if (properties) {
      for (const [name, child] of Object.entries(properties)) {
        names.set(name.toLowerCase(), name)
        if (!OPAQUE.has(name)) walk(child)
      }
    }
    if (schema.items) walk(schema.items)
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const list = schema[key]
      if (Array.isArray(list)) list.forEach(walk)
    }
  }
  schemas.forEach(walk)
}

/**
 * Renames object keys to their canonical spelling, matching case-insensitively ("email",
 * "EMAIL" → "Email"), recursively through arrays and objects. Unknown keys are kept as sent;
 * ExtraData's keys are user data and are never renamed.
 */
function canonicaliseKeys(value: unknown, names: Map<string, string>, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => canonicaliseKeys(item, names, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue
    const canonical = names.get(key.toLowerCase()) ?? key
    out[canonical] = OPAQUE.has(canonical) ? child : canonicaliseKeys(child, names, depth + 1)
  }
  return out
}

const QUERY_NAMES = new Map([
  ['createdsince', 'createdSince'],
  ['page', 'page'],
  ['pagesize', 'pageSize'],
  ['maxcount', 'maxCount'],
  ['apikey', 'apikey']
])

/**
 * Property and query parameter names are matched case-insensitively (ASP.NET's behaviour): each
 * request's names are rewritten to the canonical spelling before validation, for the body with
 * every property name of the scope's body schemas. Output is always PascalCase.
 */
export function caseInsensitiveInput(scope: App): void {
  const names = new Map<string, string>()
  scope.addHook('onRoute', (route) => {
    const body = route.schema?.body
    if (body) collectPropertyNames([body as TSchema], names)
  })
  scope.addHook('preValidation', async (request) => {
    if (request.body !== undefined && request.body !== null && typeof request.body === 'object')
      request.body = canonicaliseKeys(request.body, names)
    const query = request.query as Record<string, unknown>
    const canonical: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(query)) canonical[QUERY_NAMES.get(key.toLowerCase()) ?? key] = value
    // An unencoded "+" of a zone offset arrives as a space.
    if (typeof canonical.createdSince === 'string') canonical.createdSince = canonical.createdSince.replace(/ (\d{2}(:?\d{2})?)$/, '+$1')
    request.query = canonical
  })
}
