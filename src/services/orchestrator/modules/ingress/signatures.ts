/**
 * How each platform proves a delivery is its own (docs/orchestrator.md#webhook-ingress): HMAC
 * over the raw body where the platform signs with a shared secret (generic, Slack, e-mail relay),
 * Ed25519 for Discord, a shared secret header for Telegram. Every comparison is constant-time.
 */
import crypto from 'node:crypto'

export function hmacHex(secret: string, message: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(message).digest('hex')
}

/** Constant-time equality of two strings (false, without a timing hint, when the lengths differ). */
export function sameSecret(a: string, b: string): boolean {
  const left = crypto.createHash('sha256').update(a).digest()
  const right = crypto.createHash('sha256').update(b).digest()
  return crypto.timingSafeEqual(left, right) && a.length === b.length
}

// DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

/** Discord: Ed25519 signature (hex) over timestamp + raw body, checked with the application's public key (hex). */
export function ed25519Valid(publicKeyHex: string, signatureHex: string, message: Buffer): boolean {
  if (!/^[0-9a-f]{64}$/i.test(publicKeyHex) || !/^[0-9a-f]{128}$/i.test(signatureHex)) return false
  const key = crypto.createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]),
    format: 'der',
    type: 'spki'
  })
  return crypto.verify(null, message, key, Buffer.from(signatureHex, 'hex'))
}

/** Seconds since the epoch in a header or field, or null when it is not a plain integer. */
export function epochSeconds(value: unknown): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null
  const text = String(value)
  if (!/^\d{1,12}$/.test(text)) return null
  return Number(text)
}
