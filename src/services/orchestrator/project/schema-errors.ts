/**
 * TypeBox errors turned into one readable line per failing field: unions of literals become
 * "must be one of …", the redundant "schema is false" twin of additionalProperties is dropped.
 */
import type { TSchema } from 'typebox'
import Value from 'typebox/value'

export interface FieldError {
  /** Dotted path (`engine.max_workers`, `0.priority`); '' for the value itself. */
  path: string
  message: string
}

export function describeSchemaErrors(schema: TSchema, value: unknown, prefix = ''): FieldError[] {
  const byPath = new Map<string, { message: string; allowed: string[] }>()
  for (const error of Value.Errors(schema, value)) {
    if (error.keyword === 'boolean') continue
    const path = joinPath(prefix, error.instancePath.replace(/^\//, '').replace(/\//g, '.'))
    const entry = byPath.get(path) ?? { message: error.message + describeParams(error.params), allowed: [] }
    const allowed = (error.params as { allowedValue?: unknown }).allowedValue
    if (error.keyword === 'const' && allowed !== undefined) {
      const shown = JSON.stringify(typeof allowed === 'string' ? allowed.toLowerCase() : allowed)
      if (!entry.allowed.includes(shown)) entry.allowed.push(shown)
    }
    byPath.set(path, entry)
  }
  return [...byPath].map(([path, entry]) => ({
    path,
    message: entry.allowed.length > 0 ? `must be one of ${entry.allowed.join(', ')}` : entry.message
  }))
}

export function joinPath(prefix: string, rest: string): string {
  return prefix === '' ? rest : rest === '' ? prefix : `${prefix}.${rest}`
}

function describeParams(params: unknown): string {
  const extra = (params as { additionalProperties?: unknown } | null)?.additionalProperties
  return Array.isArray(extra) ? ` (${extra.join(', ')})` : ''
}
