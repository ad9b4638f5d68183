import type { ServerResponse } from 'node:http'

/** A piece of a body: a text (written as UTF-8) or bytes already encoded. */
export type BodyPart = string | Buffer

/** The parts as one buffer (a body too large for a pooled one). */
export function joinParts(parts: readonly BodyPart[]): Buffer {
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)))
}

export interface BodyPoolOptions {
  /** Bytes of each pooled buffer: a body larger than this is not pooled. */
  bufferBytes?: number
  /** Free buffers kept for reuse (the rest are left to the collector). */
  maxFree?: number
}

/**
 * Texts up to this length are copied character by character when they are ASCII: a body written from hundreds of
 * short texts (separators, numbers, keys) spent more in `buffer.write`'s argument handling than in copying.
 */
const SHORT_TEXT = 48

/** Copies `text` into `buffer` at `at` while it is ASCII; returns how many characters were copied. */
function copyAscii(text: string, buffer: Buffer, at: number): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) return i
    buffer[at + i] = code
  }
  return text.length
}

/**
 * Reusable buffers for large response bodies written from many texts. A new buffer per response counts as external
 * memory, and V8 starts a full collection every ~64 MB of it — about every second for 50 KB answers at 1,500 per
 * second — while a string body reaches the old generation whenever the socket write outlives a young-generation
 * collection. A pooled buffer goes back to the pool only after the response's `finish` event, which Node emits once
 * the last byte was handed to the operating system; a response that never finishes (the client went away) leaves its
 * buffer to the collector, so a buffer still referenced by a write is never reused.
 */
export function createBodyPool(options: BodyPoolOptions = {}) {
  const bufferBytes = options.bufferBytes ?? 128 * 1024
  const maxFree = options.maxFree ?? 64
  const free: Buffer[] = []

  /** The parts' bytes in a pooled buffer, recycled once `response` finishes; null when they do not fit one. */
  function fill(parts: readonly BodyPart[], response: ServerResponse): Buffer | null {
    const buffer = free.pop() ?? Buffer.allocUnsafeSlow(bufferBytes)
    let at = 0
    for (const part of parts) {
      if (typeof part !== 'string') {
        if (bufferBytes - at < part.length) {
          free.push(buffer)
          return null
        }
        buffer.set(part, at)
        at += part.length
        continue
      }
      if (part.length <= SHORT_TEXT && bufferBytes - at >= part.length) {
        const copied = copyAscii(part, buffer, at)
        if (copied === part.length) {
          at += copied
          continue
        }
      }
      // A UTF-16 unit is at most 3 bytes of UTF-8: measure exactly only when the part might not fit.
      if (bufferBytes - at < 3 * part.length && bufferBytes - at < Buffer.byteLength(part)) {
        free.push(buffer)
        return null
      }
      at += buffer.write(part, at)
    }
    response.once('finish', () => {
      if (free.length < maxFree) free.push(buffer)
    })
    return buffer.subarray(0, at)
  }

  return { fill, bufferBytes, freeCount: () => free.length }
}
export type BodyPool = ReturnType<typeof createBodyPool>
