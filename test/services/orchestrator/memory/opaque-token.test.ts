import assert from 'node:assert/strict'
import { createHmac, randomBytes } from 'node:crypto'
import { test } from 'node:test'
import { canonicalJson } from '../../../../src/core/canonical-json.js'
import { createMac, createTokenSealer } from '../../../../src/services/orchestrator/modules/memory/opaque-token.js'

test('sealCanonical gives the token seal gives for the same canonical payload, and it opens', () => {
  const sealer = createTokenSealer(randomBytes(32))
  const payload = { schemaVersion: 1, consumer: 'api', id: 7, candidateDigest: 'sha256:ab' }
  const token = sealer.sealCanonical('p.', '{"candidateDigest":"sha256:ab","consumer":"api","id":7,"schemaVersion":1}')
  assert.equal(token, sealer.seal('p.', payload))
  assert.deepEqual(sealer.open('p.', token), payload)
  assert.equal(createTokenSealer(randomBytes(32)).open('p.', token), null)
})

test('a sealed token is the prefix and base64url of the canonical {mac, payload}, its mac an HMAC-SHA256 (any size, non-ASCII too)', () => {
  const key = randomBytes(32)
  const sealer = createTokenSealer(key)
  for (const text of ['', 'plain', 'é ✓ \u2028 "quoted" \\', 'x'.repeat(20_000), 'ü'.repeat(9_000)]) {
    const payload = { afterId: 12, consumer: 'api', note: text, schemaVersion: 1 }
    const payloadJson = canonicalJson(payload)
    const mac = createHmac('sha256', key).update('memory-read-cursor-v1.').update(payloadJson).digest('hex')
    const expected = `memory-read-cursor-v1.${Buffer.from(canonicalJson({ mac: `hmac-sha256:${mac}`, payload })).toString('base64url')}`
    assert.equal(sealer.sealCanonical('memory-read-cursor-v1.', payloadJson), expected)
    // Twice in a row: the reused buffer holds nothing of the last token.
    assert.equal(sealer.sealCanonical('memory-read-cursor-v1.', payloadJson), expected)
  }
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
