import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import { createTokenSealer } from '../../../../src/services/orchestrator/modules/memory/opaque-token.js'

test('sealCanonical gives the token seal gives for the same canonical payload, and it opens', () => {
  const sealer = createTokenSealer(randomBytes(32))
  const payload = { schemaVersion: 1, consumer: 'api', id: 7, candidateDigest: 'sha256:ab' }
  const token = sealer.sealCanonical('p.', '{"candidateDigest":"sha256:ab","consumer":"api","id":7,"schemaVersion":1}')
  assert.equal(token, sealer.seal('p.', payload))
  assert.deepEqual(sealer.open('p.', token), payload)
  assert.equal(createTokenSealer(randomBytes(32)).open('p.', token), null)
})
