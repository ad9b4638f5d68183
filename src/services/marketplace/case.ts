import type { TSchema } from 'typebox'

/** Properties whose keys are user data (kept exactly as sent). */
const OPAQUE = new Set(['ExtraData'])

/** Lower-cased property name → canonical PascalCase name, for every property of the given schemas. */
export function collectPropertyNames(schemas: TSchema[]): Map<string, string> {
  const names = new Map<string, string>()
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
  return names
}

/**
 * Renames object keys to their canonical spelling, matching case-insensitively ("email",
 * "EMAIL" → "Email"), recursively through arrays and objects. Unknown keys are kept as sent;
 * ExtraData's keys are user data and are never renamed.
 */
export function canonicaliseKeys(value: unknown, names: Map<string, string>, depth = 0): unknown {
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
