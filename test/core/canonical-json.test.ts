import assert from 'node:assert/strict'
import { test } from 'node:test'
import { canonicalJson } from '../../src/core/canonical-json.js'

/** The definition, written plainly: members without undefined values, keys sorted by UTF-16 code units, at every depth. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`
  const record = value as Record<string, unknown>
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${reference(record[key])}`)
  return `{${members.join(',')}}`
}

test('canonical JSON: keys sorted at every depth, undefined members left out, equal to its definition', () => {
  let seed = 7
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  const keys = ['b', 'a', 'é', 'Z', 'aa', '10', '9', 'mode', 'terms', '"q"', 'x\ny']
  const make = (depth: number): unknown => {
    const pick = next()
    if (depth > 3 || pick < 0.3) return [null, true, 0, -1.5, 'text', 'ü\u2028"', 1e21][Math.floor(next() * 7)]
    if (pick < 0.55) return Array.from({ length: Math.floor(next() * 4) }, () => make(depth + 1))
    const record: Record<string, unknown> = {}
    for (let i = Math.floor(next() * 6); i > 0; i--)
      record[keys[Math.floor(next() * keys.length)]!] = next() < 0.1 ? undefined : make(depth + 1)
    return record
  }
  for (let i = 0; i < 2000; i++) {
    const value = make(0)
    assert.equal(canonicalJson(value), reference(value), JSON.stringify(value))
  }
  assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } }), '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}')
})
