import { io, type Socket } from 'socket.io-client'
import type { BenchContext, CustomResult, ServiceBench } from '../types.js'
import { makePng } from '../../test/helpers/images.js'

const SOCKETS = 1000
const ROUNDS = 5

async function json<T>(response: Response, expected: number, what: string): Promise<T> {
  if (response.status !== expected) throw new Error(`${what} → ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number
}

/** 1,000 Socket.IO clients: each created post's delivery latency (POST sent → event received) on every socket. */
async function fanOut(context: BenchContext, token: string, imageUrl: string): Promise<CustomResult> {
  const sockets: Socket[] = []
  try {
    for (let batch = 0; batch < SOCKETS; batch += 100) {
      const connecting: Promise<void>[] = []
      for (let i = batch; i < Math.min(SOCKETS, batch + 100); i++) {
        const socket = io(context.baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } })
        sockets.push(socket)
        connecting.push(
          new Promise((resolve, reject) => {
            socket.once('connect', () => resolve())
            socket.once('connect_error', reject)
          })
        )
      }
      await Promise.all(connecting)
    }
    await new Promise((r) => setTimeout(r, 500))
    const rssWithSockets = context.serverRssMb()

    const latencies: number[] = []
    let missed = 0
    for (let round = 0; round < ROUNDS; round++) {
      const title = `Fan-out round ${round} ${Date.now()}`
      let sentAt = 0
      const received = sockets.map(
        (socket) =>
          new Promise<number>((resolve) => {
            const timer = setTimeout(() => {
              socket.off('posts', onEvent)
              resolve(NaN)
            }, 5000)
            function onEvent(event: { action: string; post: { title?: string } }) {
              if (event.action !== 'create' || event.post.title !== title) return
              clearTimeout(timer)
              socket.off('posts', onEvent)
              resolve(performance.now() - sentAt)
            }
            socket.on('posts', onEvent)
          })
      )
      sentAt = performance.now()
      await json(
        await fetch(`${context.baseUrl}/feed/post`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title, content: 'Delivered to every connected client', imageUrl })
        }),
        201,
        'POST /feed/post (fan-out)'
      )
      for (const latency of await Promise.all(received)) {
        if (Number.isNaN(latency)) missed++
        else latencies.push(latency)
      }
      await new Promise((r) => setTimeout(r, 200))
    }
    latencies.sort((a, b) => a - b)
    const p50 = percentile(latencies, 50)
    const p99 = percentile(latencies, 99)
    return {
      metrics: {
        sockets: SOCKETS,
        events: `${latencies.length}/${SOCKETS * ROUNDS}`,
        'p50 ms': Number(p50.toFixed(1)),
        'p99 ms': Number(p99.toFixed(1)),
        'max ms': Number((latencies.at(-1) ?? NaN).toFixed(1)),
        'server RSS MB': Number(rssWithSockets.toFixed(1))
      },
      pass: missed === 0 && p99 < 100 && rssWithSockets < 250,
      targetText: 'every socket gets every post; p99 < 100 ms; RSS < 250 MB with 1,000 sockets'
    }
  } finally {
    for (const socket of sockets) socket.close()
  }
}

export const bench: ServiceBench = {
  service: 'feed',
  env: { JWT_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef' },
  async setup(context) {
    const base = context.baseUrl
    const credentials = { email: 'bench@example.com', password: 'bench-password', name: 'Bench' }
    await json(
      await fetch(`${base}/auth/signup`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials)
      }),
      201,
      'PUT /auth/signup'
    )
    const { token } = await json<{ token: string }>(
      await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: credentials.email, password: credentials.password })
      }),
      200,
      'POST /auth/login'
    )

    // Posts with uploaded images (multipart, as the web client sends them).
    let imageUrl = ''
    for (let i = 0; i < 20; i++) {
      const form = new FormData()
      form.append('title', `Bench post ${i}`)
      form.append('content', 'Seeded for the benchmark')
      form.append('image', new Blob([makePng([200, 80, 40], 16)], { type: 'image/png' }), `bench-${i}.png`)
      const created = await json<{ post: { imageUrl: string } }>(
        await fetch(`${base}/feed/post`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form }),
        201,
        'POST /feed/post (multipart)'
      )
      imageUrl ||= created.post.imageUrl
    }
    const headers = { authorization: `Bearer ${token}` }
    return [
      {
        kind: 'http',
        name: 'GET /feed/posts?page=1 (authenticated)',
        method: 'GET',
        path: '/feed/posts?page=1',
        headers,
        target: { minRatio: 0.25, maxP99Ms: 15 }
      },
      {
        kind: 'http',
        name: 'POST /feed/post (JSON, existing image)',
        method: 'POST',
        path: '/feed/post',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Benchmark post', content: 'Posted by autocannon', imageUrl })
      },
      { kind: 'custom', name: `Socket.IO fan-out: ${SOCKETS} clients receive a created post`, run: (ctx) => fanOut(ctx, token, imageUrl) }
    ]
  }
}
