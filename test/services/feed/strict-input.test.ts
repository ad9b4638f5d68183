import { test } from 'node:test'
import assert from 'node:assert/strict'
import { png, startFeed } from '../../helpers/feed.js'
import { EMPTY_JSON_VARIANTS, injectEmptyJson, NON_FINITE } from '../../helpers/strict-input.js'

test('feed: JSON values of the wrong type are 422 and nothing is written; form fields are still strings', async (t) => {
  const f = await startFeed()
  const ann = await f.user('ann@example.com', 'Ann')

  await t.test('{"status": 5} is 422 and the status stays', async () => {
    for (const body of [{ status: 5 }, { status: true }, { status: ['x'] }]) {
      const res = await f.call(ann.token, 'PATCH', '/auth/status', body)
      assert.equal(res.status, 422, JSON.stringify(body))
      assert.equal(res.json.code, 'FEED_VALIDATION_FAILED')
      assert.equal(res.json.data[0].param, 'status')
    }
    assert.deepEqual((await f.call(ann.token, 'GET', '/auth/status')).json, { status: 'I am new!' })
  })

  await t.test('a body of the wrong top-level type is 422; sign-up with a number for the name creates no user', async () => {
    for (const payload of ['true', '"x"', '[]', '5']) {
      const res = await f.app.inject({
        method: 'PATCH',
        url: '/auth/status',
        headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'application/json' },
        payload
      })
      assert.equal(res.statusCode, 422, payload)
      assert.equal(res.json().code, 'FEED_VALIDATION_FAILED', payload)
    }
    const signup = await f.call(undefined, 'PUT', '/auth/signup', { email: 'num@example.com', name: 12345, password: 'secret123' })
    assert.equal(signup.status, 422)
    assert.equal((await f.database.db.selectFrom('feed_users').selectAll().execute()).length, 1)
  })

  await t.test('a JSON post with a number for the title is 422 FEED_INVALID_POST; the same title in a form is text', async () => {
    const json = await f.call(ann.token, 'POST', '/feed/post', { title: 1234567, content: 'Some content here', imageUrl: 'images/1.png' })
    assert.equal(json.status, 422)
    assert.equal(json.json.code, 'FEED_INVALID_POST')
    assert.equal((await f.database.db.selectFrom('feed_posts').selectAll().execute()).length, 0)
    const form = await f.form(ann.token, 'POST', '/feed/post', { title: '1234567', content: 'Some content here' }, png())
    assert.equal(form.status, 201, form.body)
    assert.equal(form.json.post.title, '1234567')
  })

  await t.test('non-finite page and perPage are 422 in the feed shape', async () => {
    for (const value of NON_FINITE) {
      for (const name of ['page', 'perPage']) {
        const res = await f.call(ann.token, 'GET', `/feed/posts?${name}=${encodeURIComponent(value)}`)
        assert.equal(res.status, 422, `${name}=${value}: ${res.body}`)
        assert.equal(res.json.code, 'FEED_VALIDATION_FAILED')
        assert.equal(res.json.message, 'Validation failed.')
      }
    }
    assert.equal((await f.call(ann.token, 'GET', `/feed/post/${'9'.repeat(200)}`)).status, 404)
    assert.equal((await f.call(ann.token, 'GET', '/feed/post/1e309')).status, 404)
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await f.call(
        ann.token,
        method,
        '/feed/post/Infinity',
        method === 'PUT' ? { title: 'A title', content: 'Some content' } : undefined
      )
      assert.equal(res.status, 404, `${method}: ${res.body}`)
      assert.equal(res.json.message, 'Could not find post.')
    }
  })

  await t.test('GET and DELETE with Content-Type: application/json and an empty body (with and without Content-Length: 0)', async () => {
    const authorization = `Bearer ${ann.token}`
    for (const variant of EMPTY_JSON_VARIANTS) {
      const post = await f.form(ann.token, 'POST', '/feed/post', { title: 'To be deleted', content: 'Some content here' }, png())
      const read = await injectEmptyJson(f.app, 'GET', `/feed/post/${post.json.post._id}`, variant, { authorization })
      assert.equal(read.status, 200, read.body)
      const list = await injectEmptyJson(f.app, 'GET', '/feed/posts', variant, { authorization })
      assert.equal(list.status, 200, list.body)
      const gone = await injectEmptyJson(f.app, 'DELETE', `/feed/post/${post.json.post._id}`, variant, { authorization })
      assert.equal(gone.status, 200, gone.body)
      assert.deepEqual(gone.json, { message: 'Deleted post.' })
      assert.equal((await f.call(ann.token, 'GET', `/feed/post/${post.json.post._id}`)).status, 404)
    }
  })
})
