import { hash } from 'node:crypto'

/** JSON with object keys sorted at every depth, so equal values always give equal bytes (and digests). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`
}

export function sha256Digest(text: string): string {
  // One-shot hash: a Hash object per digest was a measurable share of each search (a page digests every hit).
  return `sha256:${hash('sha256', text)}`
}

export function digestOf(value: unknown): string {
  return sha256Digest(canonicalJson(value))
}
