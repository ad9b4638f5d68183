import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { definedErrors } from '../../src/core/errors/define.js'
// Each service defines its own table when its errors module loads.
import '../../src/core/errors/common.js'
import '../../src/services/trips/errors.js'
import '../../src/services/feed/errors.js'
import '../../src/services/marketplace/errors.js'
import '../../src/services/orchestrator/errors.js'

test('docs/errors.md lists exactly the codes of the catalogue, with the same statuses', () => {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'errors.md'), 'utf8')
  const documented = new Map<string, number>()
  for (const match of doc.matchAll(/^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|\s*(\d{3})\s*\|/gm)) {
    assert.ok(!documented.has(match[1] as string), `${match[1]} is documented twice`)
    documented.set(match[1] as string, Number(match[2]))
  }
  const catalogued = new Map([...definedErrors()].map(([code, spec]) => [code, spec.status]))
  const missingInDoc = [...catalogued.keys()].filter((c) => !documented.has(c))
  const unknownInDoc = [...documented.keys()].filter((c) => !catalogued.has(c))
  assert.deepEqual(missingInDoc, [], 'codes missing from docs/errors.md')
  assert.deepEqual(unknownInDoc, [], 'docs/errors.md lists codes the catalogue does not have')
  for (const [code, status] of catalogued) assert.equal(documented.get(code), status, `status of ${code}`)
})
