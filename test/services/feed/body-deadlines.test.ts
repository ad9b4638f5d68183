import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { startFeed } from '../../helpers/feed.js'

interface Outcome {
  text: string
  ms: number
  /** Bytes this client managed to write before the server closed the connection. */
  written: number
}

/**
 * A raw connection that sends `head`, then `chunk` every `everyMs` (up to `total` bytes, or for
 * ever when `total` is undefined); resolves when the server closes it.
 */
function send(port: number, head: string, options: { chunk?: Buffer; everyMs?: number; total?: number } = {}): Promise<Outcome> {
  const started = Date.now()
  const socket = net.connect({ port, host: '127.0.0.1' })
  let text = ''
  let written = 0
  let timer: NodeJS.Timeout | undefined
  socket.on('data', (data) => (text += data.toString('latin1')))
  socket.on('error', () => {})
  // A server that never closes fails the test instead of hanging it.
  const giveUp = setTimeout(() => socket.destroy(), 20_000)
  socket.once('connect', () => {
    socket.write(head)
    const { chunk, everyMs, total } = options
    if (!chunk) return
    const pump = () => {
      while (socket.writable && (total === undefined || written < total)) {
        written += chunk.length
        if (!socket.write(chunk)) return void socket.once('drain', pump)
        if (everyMs !== undefined) return void (timer = setTimeout(pump, everyMs))
      }
    }
    pump()
  })
  return new Promise((resolve) => {
    socket.on('close', () => {
      clearTimeout(timer)
      clearTimeout(giveUp)
      resolve({ text, ms: Date.now() - started, written })
    })
  })
}

const portOf = (base: string) => Number(new URL(base).port)

test('feed: a stalled JSON body (/auth/login, 6 of 100 bytes) is cut after FEED_BODY_TIMEOUT with 408 in the feed shape', async () => {
  const f = await startFeed({ env: { FEED_BODY_TIMEOUT: '1' } })
  const port = portOf(await f.listen())
  const outcome = await send(
    port,
    'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ema'
  )
  assert.match(outcome.text, /^HTTP\/1\.1 408 /)
  const body = JSON.parse(outcome.text.slice(outcome.text.indexOf('\r\n\r\n') + 4)) as { message?: string }
  assert.equal(typeof body.message, 'string')
  assert.ok(outcome.ms >= 900 && outcome.ms < 4000, `cut after ${outcome.ms} ms`)
})

const BOUNDARY = 'deadlineboundary'
const PART_START = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`
const uploadHeaders = (length: string, token = 'nobody') =>
  `POST /feed/post HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
  `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n${length}\r\n\r\n`
const chunkOf = (data: Buffer | string) => {
  const bytes = Buffer.from(data)
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')])
}

test('feed: a slow upload is cut with 408 once FEED_BODY_TIMEOUT is over; a refused one is not read to its end', async () => {
  const f = await startFeed({ env: { FEED_BODY_TIMEOUT: '1', FEED_UPLOAD_MIN_RATE: '8192' } })
  const { token } = await f.user('ann@example.com')
  const port = portOf(await f.listen())
  // 100 bytes every 100 ms: 1 KB/s, an eighth of the minimum.
  const slow = await send(port, uploadHeaders('Content-Length: 1000000', token) + PART_START, { chunk: Buffer.alloc(100, 1), everyMs: 100 })
  assert.match(slow.text, /^HTTP\/1\.1 408 /)
  assert.ok(slow.ms >= 900 && slow.ms < 5000, `cut after ${slow.ms} ms`)
  // Refused before its body arrived (no valid token): answered, and the connection closed rather than the body read.
  const refused = await send(port, uploadHeaders('Content-Length: 100000000') + PART_START, {
    chunk: Buffer.alloc(64 * 1024, 1),
    total: 100_000_000
  })
  assert.match(refused.text, /^HTTP\/1\.1 401 /)
  assert.match(refused.text, /connection: close/i)
  assert.ok(refused.written < 100_000_000, `the whole body was read (${refused.written} bytes)`)
})

test('feed: an upload over FEED_IMAGE_MAX_BYTES is refused at the limit and the connection closed, not read to the end', async () => {
  const limit = 1024 * 1024
  const f = await startFeed({ env: { FEED_IMAGE_MAX_BYTES: String(limit) } })
  const { token } = await f.user('ann@example.com')
  const port = portOf(await f.listen())
  const chunk = Buffer.alloc(64 * 1024, 7)
  // A length under what a form may hold, but an image over the limit: refused when the limit is reached.
  const over = limit + 512 * 1024
  const past = await send(port, uploadHeaders(`Content-Length: ${over + PART_START.length}`, token) + PART_START, { chunk, total: over })
  assert.match(past.text, /^HTTP\/1\.1 422 /, past.text.slice(0, 200))
  assert.match(past.text, /connection: close/i)
  // Chunked: no length to judge by, so the server must stop at the limit.
  const chunked = await send(port, uploadHeaders('Transfer-Encoding: chunked', token) + chunkOf(PART_START).toString('latin1'), {
    chunk: chunkOf(chunk),
    total: 60 * 1024 * 1024
  })
  assert.match(chunked.text, /^HTTP\/1\.1 422 /, chunked.text.slice(0, 200))
  assert.ok(chunked.written < 60 * 1024 * 1024, `the whole upload was read (${chunked.written} bytes)`)
  // Declared: refused before a byte of the image is read.
  const declared = await send(port, uploadHeaders(`Content-Length: ${60 * 1024 * 1024}`, token) + PART_START, {
    chunk,
    total: 60 * 1024 * 1024
  })
  assert.match(declared.text, /^HTTP\/1\.1 422 /)
  assert.ok(declared.written < 60 * 1024 * 1024, `the whole upload was read (${declared.written} bytes)`)
  assert.match(declared.text, /larger than the limit of 1 MiB/)
})
