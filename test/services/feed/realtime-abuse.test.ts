import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Socket } from 'socket.io-client'
import { collectPosts, connectClient, png, startFeed, waitFor } from '../../helpers/feed.js'

/** Resolves with the reason the socket was disconnected (or rejects after `ms`). */
function disconnected(socket: Socket, ms = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket was not disconnected')), ms)
    socket.once('disconnect', (reason) => {
      clearTimeout(timer)
      resolve(reason)
    })
  })
}

/** An Engine.IO message straight onto the wire (Socket.IO packets the client library would not send). */
function rawMessage(socket: Socket, data: string): void {
  ;(socket.io.engine as unknown as { write(data: string): void }).write(data)
}

test('Socket.IO: a client that sends any event is disconnected by the server; other listeners keep receiving', async () => {
  const f = await startFeed()
  const base = await f.listen()
  const ann = await f.user('ann@example.com', 'Ann')
  const bob = await f.user('bob@example.com', 'Bob')
  const quiet = await connectClient(base, { token: bob.token })
  const events = collectPosts(quiet)
  for (const [event, args] of [
    ['posts', [{ action: 'create' }]],
    ['hello', []],
    ['message', ['x']]
  ] as const) {
    const noisy = await connectClient(base, { token: ann.token })
    const reason = disconnected(noisy)
    noisy.emit(event, ...args)
    assert.equal(await reason, 'io server disconnect', event)
  }
  assert.ok(quiet.connected)
  const created = await f.form(ann.token, 'POST', '/feed/post', { title: 'Still live', content: 'Listeners keep listening' }, png())
  assert.equal(created.status, 201)
  await waitFor(() => events.length === 1, 5000, 'the post reaching the quiet listener')
})

test('Socket.IO: too many messages or one too large a message ends the connection, events or not', async () => {
  const f = await startFeed()
  const base = await f.listen()
  const { token } = await f.user('ann@example.com')
  // CONNECT packets to a namespace that does not exist: no event, but decoded and answered each time.
  const flooding = await connectClient(base, { token })
  const floodEnd = disconnected(flooding)
  for (let i = 0; i < 200; i++) rawMessage(flooding, '0/nowhere,')
  assert.notEqual(await floodEnd, 'io client disconnect')

  const large = await connectClient(base, { token })
  const largeEnd = disconnected(large)
  rawMessage(large, `0/nowhere,${JSON.stringify({ token: 'x'.repeat(9000) })}`)
  assert.notEqual(await largeEnd, 'io client disconnect')

  // Below the limits nothing happens: a few messages, spaced out, of ordinary size.
  const polite = await connectClient(base, { token })
  for (let i = 0; i < 5; i++) rawMessage(polite, '0/nowhere,')
  await new Promise((resolve) => setTimeout(resolve, 300))
  assert.ok(polite.connected)
})

test('Socket.IO: 20 sockets spamming 300 events each are all disconnected while HTTP keeps answering', async () => {
  const f = await startFeed({ env: { FEED_SOCKET_ANONYMOUS: '1' } })
  const base = await f.listen()
  const sockets = await Promise.all(Array.from({ length: 20 }, () => connectClient(base)))
  const ends = sockets.map((socket) => disconnected(socket, 10_000))
  // 20 sockets × 300 events at once, while an HTTP request must still be answered.
  for (const socket of sockets) for (let i = 0; i < 300; i++) socket.emit('spam', i)
  const health = await fetch(`${base}/health`)
  assert.equal(health.status, 200)
  assert.deepEqual(new Set(await Promise.all(ends)), new Set(['io server disconnect']))
})
