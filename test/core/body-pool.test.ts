import assert from 'node:assert/strict'
import net from 'node:net'
import { test } from 'node:test'
import Fastify from 'fastify'
import { createBodyPool, joinParts } from '../../src/core/http/body-pool.js'

const BODY_CHARS = 4 * 1024 * 1024

/** A body of request n: its number, then one character of its own repeated (so a body overwritten by another shows). */
const partsOf = (n: number) => [`{"n":${n},"fill":"`, String.fromCharCode(97 + (n % 26)).repeat(BODY_CHARS), '"}']

/** One GET over its own socket; a slow reader stops reading until `resume` settles (the server's write waits). */
function get(port: number, path: string, resume?: Promise<unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.setNoDelay(true)
    socket.on('connect', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`)
      if (resume) {
        socket.pause()
        void resume.finally(() => socket.resume())
      }
    })
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString()
      resolve(text.slice(text.indexOf('\r\n\r\n') + 4))
    })
  })
}

test('a pooled body is not reused while its response is still being written, and is reused after', async () => {
  const pool = createBodyPool({ bufferBytes: 8 * 1024 * 1024, maxFree: 1 })
  const app = Fastify()
  const finished = new Map<number, number>()
  const served: Array<{ n: number; at: number; pooled: boolean }> = []
  app.get<{ Params: { n: string } }>('/body/:n', async (request, reply) => {
    const n = Number(request.params.n)
    const parts = partsOf(n)
    const body = pool.fill(parts, reply.raw)
    served.push({ n, at: performance.now(), pooled: body !== null })
    reply.raw.once('finish', () => finished.set(n, performance.now()))
    return reply.type('application/json').send(body ?? parts.join(''))
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const port = (app.server.address() as net.AddressInfo).port
    // A slow reader's answer (4 MB: more than the loopback socket buffers take) is still being written while fast
    // readers are answered one after the other; a buffer given back before its write ended would be overwritten.
    // It reads again only once the fast ones were answered, however slow this machine is.
    let fastDone!: () => void
    const slow = get(port, '/body/0', new Promise<void>((resolve) => (fastDone = resolve)))
    while (!served.some((s) => s.n === 0)) await new Promise((resolve) => setTimeout(resolve, 10))
    const fast: string[] = []
    for (let n = 1; n <= 4; n++) fast.push(await get(port, `/body/${n}`))
    fastDone()
    assert.equal(await slow, partsOf(0).join(''), 'the slow answer is intact')
    fast.forEach((answer, at) => assert.equal(answer, partsOf(at + 1).join(''), `fast answer ${at + 1}`))
    // The precondition: the fast answers were made while the slow one was still being written.
    assert.ok(
      served.filter((s) => s.n > 0).every((s) => s.at < finished.get(0)!),
      'fast answers came before the slow one finished'
    )
    assert.ok(served.every((s) => s.pooled))
    // Fast answers after the first reuse the one free buffer; the slow one's comes back after it finishes.
    assert.equal(pool.freeCount(), 1)
  } finally {
    await app.close()
  }
})

test('a body that does not fit a pooled buffer is not pooled, measured in UTF-8 bytes', async () => {
  const pool = createBodyPool({ bufferBytes: 1000 })
  const app = Fastify()
  const pooled: boolean[] = []
  app.get<{ Params: { count: string } }>('/euros/:count', async (request, reply) => {
    const parts = ['{"a":"', '€'.repeat(Number(request.params.count)), '"}']
    const body = pool.fill(parts, reply.raw)
    pooled.push(body !== null)
    return reply.type('application/json').send(body ?? parts.join(''))
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const port = (app.server.address() as net.AddressInfo).port
    // 400 three-byte characters are 1,200 bytes, too large though only 400 UTF-16 units; 300 are 908 bytes with the rest.
    for (const count of [400, 300]) assert.equal(await get(port, `/euros/${count}`), `{"a":"${'€'.repeat(count)}"}`)
    assert.deepEqual(pooled, [false, true])
  } finally {
    await app.close()
  }
})

test('bytes and texts fill one body in order; encoded bytes count toward the limit as they are', async () => {
  const pool = createBodyPool({ bufferBytes: 1000 })
  const app = Fastify()
  const pooled: boolean[] = []
  app.get<{ Params: { count: string } }>('/mixed/:count', async (request, reply) => {
    // Short texts, one of them not ASCII (copied character by character until the 'ü', then encoded).
    const parts = ['{"a":"', Buffer.from('é'.repeat(Number(request.params.count))), '","bü":', Buffer.from('[1,2]'), '}']
    const body = pool.fill(parts, reply.raw)
    pooled.push(body !== null)
    return reply.type('application/json').send(body ?? joinParts(parts))
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const port = (app.server.address() as net.AddressInfo).port
    // 600 two-byte characters are 1,200 bytes: too large for a 1,000-byte buffer, and joined instead.
    for (const count of [600, 400]) assert.equal(await get(port, `/mixed/${count}`), `{"a":"${'é'.repeat(count)}","bü":[1,2]}`)
    assert.deepEqual(pooled, [false, true])
  } finally {
    await app.close()
  }
})
