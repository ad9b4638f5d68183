import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { collectPosts, connectClient, png, startFeed, waitFor, type StartFeedOptions } from '../../helpers/feed.js'

const ALLOWED = 'https://feed.example'
const FOREIGN = 'https://attacker.example'

/** The handshake rules hold with the in-process adapter and with the Redis adapter alike. */
const setups: { name: string; options: () => StartFeedOptions | undefined }[] = [
  { name: 'in-process adapter', options: () => ({}) },
  {
    name: 'Redis adapter',
    options: () =>
      process.env.REDIS_URL
        ? { redisUrl: process.env.REDIS_URL, redisKey: `quartet-feed-test-${randomBytes(6).toString('hex')}` }
        : undefined
  }
]

function connectError(promise: Promise<unknown>): Promise<Error & { data?: { code?: string } }> {
  return promise.then(
    () => {
      throw new Error('the handshake was accepted')
    },
    (error: Error & { data?: { code?: string } }) => error
  )
}

for (const setup of setups) {
  const start = async (env: Record<string, string> = {}) => {
    const options = setup.options() as StartFeedOptions
    const feed = await startFeed({ ...options, env: { FEED_CORS_ORIGINS: ALLOWED, ...env } })
    return { feed, base: await feed.listen() }
  }
  const skip = () => (setup.options() === undefined ? 'needs REDIS_URL' : false)

  test(
    `${setup.name}: an origin outside FEED_CORS_ORIGINS is refused on WebSocket and polling; listed and absent origins connect`,
    { skip: skip() },
    async () => {
      const { feed, base } = await start()
      const { token } = await feed.user('ann@example.com')
      for (const transport of ['websocket', 'polling'] as const) {
        const refused = await connectError(connectClient(base, { token }, { transports: [transport], extraHeaders: { origin: FOREIGN } }))
        assert.match(refused.message, /websocket error|xhr poll error/, `${transport}: ${refused.message}`)
        const allowed = await connectClient(base, { token }, { transports: [transport], extraHeaders: { origin: ALLOWED } })
        assert.ok(allowed.connected, `${transport}: listed origin`)
      }
      // What the server answers a polling handshake from a foreign page, and from a non-browser client.
      const foreign = await fetch(`${base}/socket.io/?EIO=4&transport=polling`, { headers: { origin: FOREIGN } })
      assert.equal(foreign.status, 403)
      assert.match(await foreign.text(), /Origin https:\/\/attacker\.example is not allowed/)
      assert.equal((await fetch(`${base}/socket.io/?EIO=4&transport=polling`)).status, 200)
      // Loopback pages are no longer allowed once a list is configured.
      await connectError(connectClient(base, { token }, { extraHeaders: { origin: 'http://127.0.0.1:3000' } }))
      assert.ok((await connectClient(base, { token })).connected, 'no Origin header (quartet feed watch)')
    }
  )

  test(`${setup.name}: malformed, invalid and expired tokens are refused with a message that says why`, { skip: skip() }, async () => {
    // Anonymous listeners allowed: a bad token must not fall back to an anonymous connection.
    const { feed, base } = await start({ FEED_SOCKET_ANONYMOUS: '1' })
    for (const token of [42, '', '   ', {}, null, ['x'], 'two words']) {
      const refused = await connectError(connectClient(base, { token }))
      assert.match(refused.message, /^Not authenticated: auth\.token must be a login token string/, JSON.stringify(token))
      assert.equal(refused.data?.code, 'FEED_TOKEN_INVALID')
    }
    const forged = await connectError(connectClient(base, { token: 'not-a-token' }))
    assert.match(forged.message, /^Not authenticated: the token is invalid or has expired/)
    const basic = await connectError(connectClient(base, undefined, { extraHeaders: { authorization: 'Basic YW5uOnNlY3JldA==' } }))
    assert.match(basic.message, /Authorization header must be "Bearer <token>"/)

    const { token } = await feed.user('ann@example.com')
    assert.ok((await connectClient(base, { token: `Bearer ${token}` })).connected)
    assert.ok((await connectClient(base, undefined, { extraHeaders: { authorization: `Bearer ${token}` } })).connected)
    feed.advanceClock(2 * 3600 * 1000)
    const expired = await connectError(connectClient(base, { token }))
    assert.match(expired.message, /invalid or has expired/)
  })

  test(
    `${setup.name}: by default only token holders get posts; an anonymous client is refused and told about FEED_SOCKET_ANONYMOUS`,
    { skip: skip() },
    async () => {
      const { feed, base } = await start()
      const ann = await feed.user('ann@example.com', 'Ann')
      const anonymous = await connectError(connectClient(base))
      assert.match(anonymous.message, /live posts need a login token.*FEED_SOCKET_ANONYMOUS=1/)
      assert.equal(anonymous.data?.code, 'FEED_NOT_AUTHENTICATED')

      const events = collectPosts(await connectClient(base, { token: ann.token }))
      const created = await feed.form(ann.token, 'POST', '/feed/post', { title: 'For members', content: 'Only with a token' }, png())
      assert.equal(created.status, 201)
      await waitFor(() => events.length === 1, 5000, "the token holder's create event")
      assert.deepEqual(events[0], { action: 'create', post: created.json.post })
    }
  )

  test(`${setup.name}: with FEED_SOCKET_ANONYMOUS=1 a client without a token gets every post event`, { skip: skip() }, async () => {
    const { feed, base } = await start({ FEED_SOCKET_ANONYMOUS: '1' })
    const ann = await feed.user('ann@example.com', 'Ann')
    // The original course client: no auth at all, WebSocket after polling.
    const anonymous = collectPosts(
      await connectClient(base, undefined, { transports: ['polling', 'websocket'], extraHeaders: { origin: ALLOWED } })
    )
    const member = collectPosts(await connectClient(base, { token: ann.token }))
    const created = await feed.form(ann.token, 'POST', '/feed/post', { title: 'For everyone', content: 'Anonymous too' }, png())
    assert.equal((await feed.call(ann.token, 'DELETE', `/feed/post/${created.json.post._id}`)).status, 200)
    await waitFor(() => anonymous.length === 2 && member.length === 2, 5000, 'create and delete for both')
    assert.deepEqual(anonymous, [
      { action: 'create', post: created.json.post },
      { action: 'delete', post: created.json.post._id }
    ])
    assert.deepEqual(member, anonymous)
  })

  test(`${setup.name}: a socket is disconnected when its token expires; one with a fresh token stays`, { skip: skip() }, async () => {
    const { feed, base } = await start()
    const { token: expiring } = await feed.user('ann@example.com')
    // 5 s of validity left: logging in and connecting two clients must fit in it on a busy machine.
    feed.advanceClock(3600 * 1000 - 5000)
    const fresh = (await feed.call(undefined, 'POST', '/auth/login', { email: 'ann@example.com', password: 'secret123' })).json
      .token as string
    const short = await connectClient(base, { token: expiring })
    const long = await connectClient(base, { token: fresh })
    let reason: string | undefined
    short.once('disconnect', (why) => {
      reason = why
    })
    assert.ok(short.connected, 'connected while the token is valid')
    await waitFor(() => reason !== undefined, 12_000, 'the expired socket to be disconnected')
    assert.equal(reason, 'io server disconnect')
    assert.ok(long.connected)
  })
}
