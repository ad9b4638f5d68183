import assert from 'node:assert/strict'
import { createHmac, randomBytes } from 'node:crypto'
import { test } from 'node:test'
import { createMac, createTokenSealer } from '../../../../src/services/orchestrator/modules/memory/opaque-token.js'

test('sealCanonical gives the token seal gives for the same canonical payload, and it opens', () => {
  const sealer = createTokenSealer(randomBytes(32))
  const payload = { schemaVersion: 1, consumer: 'api', id: 7, candidateDigest: 'sha256:ab' }
  const token = sealer.sealCanonical('p.', '{"candidateDigest":"sha256:ab","consumer":"api","id":7,"schemaVersion":1}')
  assert.equal(token, sealer.seal('p.', payload))
  assert.deepEqual(sealer.open('p.', token), payload)
  assert.equal(createTokenSealer(randomBytes(32)).open('p.', token), null)
})

test('the MAC is HMAC-SHA256 of prefix and text, for any key length and any text (also longer than its buffer)', () => {
  for (const keyBytes of [0, 1, 32, 63, 64, 65, 200]) {
    const key = randomBytes(keyBytes)
    const mac = createMac(key)
    for (const [prefix, text] of [
      ['', ''],
      ['memory-read-cursor-v1.', '{"afterId":1}'],
      ['p.', 'é\u2028😀 "quoted" \\'],
      ['long.', 'x'.repeat(20_000) + 'é'.repeat(5_000)],
      ['again.', 'short after long']
    ])
      assert.deepEqual(mac(prefix!, text!), createHmac('sha256', key).update(prefix!).update(text!).digest(), `${keyBytes}: ${prefix}`)
  }
})
