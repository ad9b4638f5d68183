import assert from 'node:assert/strict'
import { test } from 'node:test'
import { canonicalJson } from '../../../../src/core/canonical-json.js'
import { MEMORY_SCHEMA_VERSION } from '../../../../src/services/orchestrator/modules/memory/contract.js'
import { createPageContexts, cursorJson } from '../../../../src/services/orchestrator/modules/memory/page-context.js'
import { digestOf } from '../../../../src/services/orchestrator/modules/memory/canonical.js'

test("a cursor's JSON written out is the canonical JSON of its payload", () => {
  let state = 99
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
  const text = () => ['sha256:ab', 'x"y', 'é\\n', '\u2028', ''][Math.floor(next() * 5)]!
  for (let i = 0; i < 500; i++) {
    const fields = {
      afterId: Math.floor(next() * 2 ** 31) - 2 ** 30,
      afterOrdinal: Math.floor(next() * 1000),
      afterRank: (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20),
      anchorCandidateDigest: text(),
      consumer: 'api' as const,
      limitsDigest: text(),
      queryDigest: text(),
      scopeDigest: text(),
      selectionRevisionDigest: text()
    }
    assert.equal(cursorJson(fields), canonicalJson({ ...fields, schemaVersion: MEMORY_SCHEMA_VERSION }))
  }
})

test('the selection digest is made again when the snapshot or the ranking changes', () => {
  const contexts = createPageContexts()
  const scope = { kind: 'local-project' as const, projectId: 1, tenantId: 'local' }
  const limits = { maxEntries: 20, maxCandidates: 128, maxBytes: 32768, maxLines: 200 }
  const context = contexts.contextOf('api', scope, limits, 'sha256:s', 'sha256:l')
  const expected = (ranking: string | undefined, snapshot: number) =>
    digestOf({ ...(ranking ? { ranking } : {}), scopeDigest: 'sha256:s', snapshot })
  for (const [ranking, snapshot] of [
    ['index', 5],
    ['index', 5],
    ['index', 6],
    [undefined, 6],
    ['index', 6]
  ] as const)
    assert.equal(contexts.selectionDigestOf(context, ranking, snapshot), expected(ranking, snapshot))
})
