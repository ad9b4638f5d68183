/** The config merge rule: objects merge key by key, arrays and scalars replace, `null` deletes the key. */
export function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch) || !isPlainObject(base)) return structuredClone(patch)
  const out: Record<string, unknown> = structuredClone(base)
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else if (value !== undefined) out[key] = deepMerge(out[key], value)
  }
  return out
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
