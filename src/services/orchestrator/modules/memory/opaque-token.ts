import { hash, randomBytes, timingSafeEqual } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { ensurePrivateDir } from '../../runtime/private-file.js'
import { canonicalJson } from '../../../../core/canonical-json.js'

export const CURSOR_PREFIX = 'memory-read-cursor-v1.'
export const DETAIL_PREFIX = 'memory-read-detail-v1.'
const MAX_TOKEN_CHARS = 4096

/**
 * Cursors and detail references are opaque to clients but readable to us: base64url of
 * canonical `{payload, mac}`, the mac an HMAC-SHA256 over prefix + canonical payload with the
 * project's memory key. A changed byte, a cursor used as a ref, or a token minted for another
 * project (another key) does not verify.
 */
export interface TokenSealer {
  seal(prefix: string, payload: Record<string, unknown>): string
  /** `seal` of the payload whose canonical JSON is given (the caller wrote it with its keys in order). */
  sealCanonical(prefix: string, payloadJson: string): string
  /** The payload when the token is well-formed and its mac verifies; otherwise null. */
  open(prefix: string, token: string): Record<string, unknown> | null
}

const HMAC_BLOCK = 64
const SHA256_BYTES = 32
/** Texts up to this many bytes are hashed from one reused buffer; longer ones (not made by Quartet) from their own. */
const SCRATCH_BYTES = 16 * 1024
const MAC_FIELD = '{"mac":"hmac-sha256:'
const PAYLOAD_FIELD = '","payload":'
const PAYLOAD_AT = MAC_FIELD.length + 2 * SHA256_BYTES + PAYLOAD_FIELD.length
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1')
const CLOSING_BRACE = 0x7d

/**
 * HMAC-SHA256 (RFC 2104) of `prefix` followed by `text`, from two one-shot hashes over reused buffers. `createHmac`
 * made a stream object with a native handle per cursor: ~5 % of a memory search's CPU, and those objects outlived
 * young-generation collections.
 */
export function createMac(key: Buffer): (prefix: string, text: string) => Buffer {
  const block = key.length > HMAC_BLOCK ? hash('sha256', key, 'buffer') : key
  const inner = Buffer.allocUnsafeSlow(SCRATCH_BYTES).fill(0x36, 0, HMAC_BLOCK)
  const outer = Buffer.alloc(HMAC_BLOCK + SHA256_BYTES, 0x5c)
  for (let i = 0; i < block.length; i++) {
    inner[i] = inner[i]! ^ block[i]!
    outer[i] = outer[i]! ^ block[i]!
  }
  return (prefix, text) => {
    const bytes = HMAC_BLOCK + Buffer.byteLength(prefix) + Buffer.byteLength(text)
    const buffer = bytes <= SCRATCH_BYTES ? inner : Buffer.concat([inner.subarray(0, HMAC_BLOCK)], bytes)
    const at = HMAC_BLOCK + buffer.write(prefix, HMAC_BLOCK)
    buffer.write(text, at)
    outer.set(hash('sha256', buffer.subarray(0, bytes), 'buffer'), HMAC_BLOCK)
    return hash('sha256', outer, 'buffer')
  }
}

export function createTokenSealer(key: Buffer): TokenSealer {
  const macOfText = createMac(key)
  const macOf = (prefix: string, payload: unknown) => macOfText(prefix, canonicalJson(payload))
  // A token's body is written into one reused buffer and encoded from there: building it as a string, then as a new
  // buffer, then the MAC's hex and its JSON string, was half of sealing a cursor (one per memory page).
  const body = Buffer.allocUnsafeSlow(SCRATCH_BYTES)
  body.write(MAC_FIELD, 0, 'latin1')
  const sealCanonical = (prefix: string, payloadJson: string) => {
    // canonicalJson({mac, payload}), with the payload's canonical text made once ("mac" sorts before "payload").
    const mac = macOfText(prefix, payloadJson)
    const payloadBytes = Buffer.byteLength(payloadJson)
    const size = PAYLOAD_AT + payloadBytes + 1
    const target = size <= SCRATCH_BYTES ? body : Buffer.concat([body.subarray(0, MAC_FIELD.length)], size)
    let at = MAC_FIELD.length
    for (let i = 0; i < SHA256_BYTES; i++) {
      target[at++] = HEX_DIGITS[mac[i]! >> 4]!
      target[at++] = HEX_DIGITS[mac[i]! & 15]!
    }
    at += target.write(PAYLOAD_FIELD, at, 'latin1')
    at += target.write(payloadJson, at)
    target[at++] = CLOSING_BRACE
    return prefix + target.toString('base64url', 0, at)
  }
  return {
    seal: (prefix, payload) => sealCanonical(prefix, canonicalJson(payload)),
    sealCanonical,
    open(prefix, token) {
      if (token.length > MAX_TOKEN_CHARS || !token.startsWith(prefix)) return null
      const encoded = token.slice(prefix.length)
      if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return null
      let parsed: unknown
      try {
        parsed = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'))
      } catch {
        return null
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null
      const { mac, payload } = parsed as { mac?: unknown; payload?: unknown }
      if (
        typeof mac !== 'string' ||
        !mac.startsWith('hmac-sha256:') ||
        typeof payload !== 'object' ||
        payload === null ||
        Array.isArray(payload)
      )
        return null
      const presented = Buffer.from(mac.slice('hmac-sha256:'.length), 'hex')
      const expected = macOf(prefix, payload)
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null
      return payload as Record<string, unknown>
    }
  }
}

export function memoryKeyFile(dataDir: string, projectId: number): string {
  return path.join(dataDir, 'orchestrator', 'memory-keys', `project-${projectId}.key`)
}

/**
 * The project's memory key (32 random bytes, 0600), created on first use. The file appears
 * atomically and only once (link fails when it exists), so concurrent first users agree on one key.
 */
export function loadOrCreateMemoryKey(dataDir: string, projectId: number): Buffer {
  const file = memoryKeyFile(dataDir, projectId)
  ensurePrivateDir(path.dirname(file))
  if (!fs.existsSync(file)) {
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    fs.writeFileSync(temporary, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' })
    try {
      fs.linkSync(temporary, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    } finally {
      fs.rmSync(temporary, { force: true })
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex')
  if (key.length < 32)
    throw new Error(
      `the memory key ${file} is damaged (expected 64 hex characters); remove it to mint a new one (open cursors and refs become invalid)`
    )
  return key
}
