import { hash } from 'node:crypto'
import { canonicalJson } from '../../../../core/canonical-json.js'

export function sha256Digest(text: string): string {
  // One-shot hash: a Hash object per digest was a measurable share of each search (a page digests every hit).
  return `sha256:${hash('sha256', text)}`
}

export function digestOf(value: unknown): string {
  return sha256Digest(canonicalJson(value))
}
