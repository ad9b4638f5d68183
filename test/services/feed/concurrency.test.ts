import { test } from 'node:test'
import assert from 'node:assert/strict'
import { collectPosts, connectClient, makePng, png, startFeed, waitFor } from '../../helpers/feed.js'

test('parallel edits and deletes of one post: no 5xx, one winner for delete, exactly one delete event, consistent rows', async () => {
  const f = await startFeed()
  const base = await f.listen()
  const { token } = await f.user('ann@example.com')
  const events = collectPosts(await connectClient(base, { token }))
  const created = await f.form(token, 'POST', '/feed/post', { title: 'Contended post', content: 'Everyone edits me' }, png())
  const id = created.json.post._id as string
  const imageUrl = created.json.post.imageUrl as string

  const requests = Array.from({ length: 24 }, (_, i) => {
    if (i % 4 === 0) return f.call(token, 'DELETE', `/feed/post/${id}`)
    if (i % 4 === 1)
      return f.form(
        token,
        'PUT',
        `/feed/post/${id}`,
        { title: `Edit with file ${i}`, content: 'New picture here' },
        png(`p${i}.png`, makePng([i, i, i]))
      )
    return f.call(token, 'PUT', `/feed/post/${id}`, { title: `Edit number ${i}`, content: 'Edited in parallel', imageUrl })
  })
  const responses = await Promise.all(requests)
  for (const response of responses) assert.ok(response.status < 500, `${response.status} ${response.body}`)
  const deletes = responses.filter((_, i) => i % 4 === 0)
  assert.equal(deletes.filter((r) => r.status === 200).length, 1, 'exactly one delete wins')
  assert.ok(deletes.every((r) => r.status === 200 || r.status === 404))
  for (const response of responses.filter((_, i) => i % 4 !== 0)) {
    assert.ok([200, 404, 422].includes(response.status), `${response.status} ${response.body}`)
  }

  // After the dust settles: the post is gone and no image is left behind.
  assert.equal((await f.call(token, 'GET', `/feed/post/${id}`)).status, 404)
  assert.equal((await f.database.db.selectFrom('feed_posts').selectAll().execute()).length, 0)
  assert.equal((await f.database.db.selectFrom('feed_images').select('id').execute()).length, 0)

  const successfulUpdates = responses.filter((r, i) => i % 4 !== 0 && r.status === 200).length
  await waitFor(
    () => events.filter((e) => e.action === 'delete').length === 1 && events.length === 2 + successfulUpdates,
    5000,
    'all events'
  )
  await new Promise((r) => setTimeout(r, 100))
  assert.equal(events.filter((e) => e.action === 'delete').length, 1)
  assert.equal(events.filter((e) => e.action === 'update').length, successfulUpdates)
  // Nothing is announced after the delete.
  assert.equal(events.at(-1).action, 'delete')
})

test('parallel edits of one post: the final row equals the last update event', async () => {
  const f = await startFeed()
  const base = await f.listen()
  const { token } = await f.user('bob@example.com')
  const events = collectPosts(await connectClient(base, { token }))
  const created = await f.form(token, 'POST', '/feed/post', { title: 'Edited post', content: 'Original text' }, png())
  const id = created.json.post._id as string
  const responses = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      f.form(
        token,
        'PUT',
        `/feed/post/${id}`,
        { title: `Version ${i}`, content: `Body of version ${i}` },
        png(`v${i}.png`, makePng([i * 10, 0, 0]))
      )
    )
  )
  assert.ok(
    responses.every((r) => r.status === 200),
    responses.map((r) => r.status).join(',')
  )
  await waitFor(() => events.length === 13)
  const final = await f.call(token, 'GET', `/feed/post/${id}`)
  assert.deepEqual(events.at(-1).post, final.json.post)
  // Each replaced image was removed: only the final one remains.
  const images = await f.database.db.selectFrom('feed_images').select('id').execute()
  assert.deepEqual(
    images.map((i) => `images/${i.id}.png`),
    [final.json.post.imageUrl]
  )
})
