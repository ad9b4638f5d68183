import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { collectPosts, connectClient, png, startFeed, waitFor } from '../../helpers/feed.js'

test(
  'Socket.IO "posts": create (creator populated), ' +
    'update and delete reach anonymous (FEED_SOCKET_ANONYMOUS=1) and authenticated listeners',
  async () => {
    const f = await startFeed({ env: { FEED_SOCKET_ANONYMOUS: '1' } })
    const base = await f.listen()
    const { token, userId } = await f.user('ann@example.com', 'Ann')
    const anonymous = collectPosts(await connectClient(base))
    const authenticated = collectPosts(await connectClient(base, { token }))

    const created = await f.form(token, 'POST', '/feed/post', { title: 'Live post', content: 'Hello listeners' }, png())
    assert.equal(created.status, 201)
    await waitFor(() => anonymous.length === 1 && authenticated.length === 1, 5000, 'create event')
    assert.deepEqual(anonymous[0], { action: 'create', post: created.json.post })
    assert.deepEqual(anonymous[0].post.creator, { _id: userId, name: 'Ann' })

    const id = created.json.post._id
    const updated = await f.form(token, 'PUT', `/feed/post/${id}`, {
      title: 'Live post, edited',
      content: 'Hello again',
      image: created.json.post.imageUrl
    })
    await waitFor(() => anonymous.length === 2, 5000, 'update event')
    assert.deepEqual(anonymous[1], { action: 'update', post: updated.json.post })

    assert.equal((await f.call(token, 'DELETE', `/feed/post/${id}`)).status, 200)
    await waitFor(() => anonymous.length === 3 && authenticated.length === 3, 5000, 'delete event')
    assert.deepEqual(anonymous[2], { action: 'delete', post: id })
    assert.deepEqual(authenticated, anonymous)
  }
)

test('rejected writes emit nothing', async () => {
  const f = await startFeed()
  const base = await f.listen()
  const ann = await f.user('ann@example.com')
  const bob = await f.user('bob@example.com')
  const events = collectPosts(await connectClient(base, { token: bob.token }))
  const post = await f.form(ann.token, 'POST', '/feed/post', { title: 'Ann writes', content: 'Some content' }, png())
  await waitFor(() => events.length === 1)
  assert.equal((await f.form(ann.token, 'POST', '/feed/post', { title: 'x', content: 'y' }, png())).status, 422)
  assert.equal((await f.call(bob.token, 'DELETE', `/feed/post/${post.json.post._id}`)).status, 403)
  assert.equal(
    (
      await f.call(bob.token, 'PUT', `/feed/post/${post.json.post._id}`, {
        title: 'Bob edits',
        content: 'Bob edits',
        imageUrl: post.json.post.imageUrl
      })
    ).status,
    403
  )
  // A marker event proves the earlier (rejected) requests had their chance to emit.
  await f.call(ann.token, 'DELETE', `/feed/post/${post.json.post._id}`)
  await waitFor(() => events.length === 2)
  assert.deepEqual(
    events.map((e) => e.action),
    ['create', 'delete']
  )
})

test("two instances on one database and Redis deliver each other's events", async (t) => {
  const redisUrl = process.env.REDIS_URL
  if (!redisUrl || !process.env.DATABASE_URL) {
    t.skip('needs REDIS_URL and DATABASE_URL')
    return
  }
  const redisKey = `quartet-feed-test-${randomBytes(6).toString('hex')}`
  const one = await startFeed({ redisUrl, redisKey })
  const two = await startFeed({ redisUrl, redisKey, database: one.database })
  const [baseOne, baseTwo] = [await one.listen(), await two.listen()]
  const ann = await one.user('ann@example.com', 'Ann')
  const onOne = collectPosts(await connectClient(baseOne, { token: ann.token }))
  const onTwo = collectPosts(await connectClient(baseTwo, { token: ann.token }))

  const created = await one.form(ann.token, 'POST', '/feed/post', { title: 'From instance one', content: 'Crosses Redis' }, png())
  assert.equal(created.status, 201)
  await waitFor(() => onOne.length === 1 && onTwo.length === 1, 5000, 'create on both instances')
  assert.deepEqual(onTwo[0], { action: 'create', post: created.json.post })

  // The same token works on the other instance (shared secret and database); its write reaches instance one.
  const id = created.json.post._id
  assert.equal((await two.app.inject({ url: `/${created.json.post.imageUrl}` })).statusCode, 200, 'images are served by every instance')
  assert.equal((await two.call(ann.token, 'DELETE', `/feed/post/${id}`)).status, 200)
  await waitFor(() => onOne.length === 2 && onTwo.length === 2, 5000, 'delete on both instances')
  assert.deepEqual(onOne[1], { action: 'delete', post: id })
  assert.deepEqual(onTwo[1], { action: 'delete', post: id })
})
