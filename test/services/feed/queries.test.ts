import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileQuery } from '../../../src/core/db/prepared.js'
import { png, startFeed } from '../../helpers/feed.js'

test(
  'compileQuery: runs on the database and inside a transaction, ' +
    'a repeated argument fills every place, a swallowed argument is refused',
  async () => {
    const f = await startFeed()
    const db = f.database.db
    await f.user('ann@example.com', 'Ann')
    const nameOf = compileQuery(db, 1, (id: number) => db.selectFrom('feed_users').select('name').where('id', '=', id))
    assert.deepEqual((await nameOf(db, 1)).rows, [{ name: 'Ann' }])
    assert.deepEqual((await nameOf(db, 99)).rows, [])
    // Inside a transaction (on SQLite the transaction holds the one connection: the handle passed is used).
    const inTrx = await db.transaction().execute(async (trx) => (await nameOf(trx, 1)).rows)
    assert.deepEqual(inTrx, [{ name: 'Ann' }])

    const twice = compileQuery(db, 1, (id: number) => db.selectFrom('feed_users').select('id').where('id', '=', id).where('id', '>=', id))
    assert.deepEqual(
      (await twice(db, 1)).rows.map((r) => Number(r.id)),
      [1]
    )

    const setName = compileQuery(db, 2, (id: number, name: string) => db.updateTable('feed_users').set({ name }).where('id', '=', id))
    assert.equal((await setName(db, 1, 'Anna')).numAffectedRows, 1n)
    assert.equal((await setName(db, 42, 'Nobody')).numAffectedRows, 0n)
    assert.deepEqual((await nameOf(db, 1)).rows, [{ name: 'Anna' }])

    assert.throws(
      () =>
        compileQuery(db, 1, (email: string) =>
          db.selectFrom('feed_users').select('id').where('email_key', '=', String(email).toLowerCase())
        ),
      /argument 0 did not reach the compiled query/
    )
  }
)

test('list: every page size and page gives the same posts as one full listing, with the exact total', async () => {
  const f = await startFeed()
  const { token } = await f.user('bea@example.com', 'Bea')
  const ids: string[] = []
  for (let i = 1; i <= 7; i++) {
    const created = await f.form(token, 'POST', '/feed/post', { title: `Post number ${i}`, content: 'Some content here' }, png())
    assert.equal(created.status, 201, created.body)
    ids.push(created.json.post._id as string)
  }
  const newestFirst = [...ids].reverse()
  for (const perPage of [1, 2, 3, 4, 6, 7, 8, 100]) {
    const seen: string[] = []
    for (let page = 1; page <= Math.ceil(7 / perPage) + 1; page++) {
      const response = await f.call(token, 'GET', `/feed/posts?page=${page}&perPage=${perPage}`)
      assert.equal(response.status, 200, response.body)
      assert.equal(response.json.totalItems, 7, `perPage ${perPage} page ${page}`)
      assert.ok(response.json.posts.length <= perPage)
      seen.push(...response.json.posts.map((p: { _id: string }) => p._id))
    }
    assert.deepEqual(seen, newestFirst, `perPage ${perPage}`)
  }

  // The total follows deletes and creates at once (no cached count).
  assert.equal((await f.call(token, 'DELETE', `/feed/post/${ids[6]}`)).status, 200)
  const afterDelete = await f.call(token, 'GET', '/feed/posts?perPage=3')
  assert.equal(afterDelete.json.totalItems, 6)
  assert.deepEqual(
    afterDelete.json.posts.map((p: { _id: string }) => p._id),
    newestFirst.slice(1, 4)
  )
  const last = await f.call(token, 'GET', '/feed/posts?page=2&perPage=6')
  assert.deepEqual(last.json, { message: 'Fetched posts successfully.', posts: [], totalItems: 6 })
})

test(
  'the reads skip the multipart scope, the writes keep it: ' + 'a GET needs only the token; PUT and DELETE still take multipart and JSON',
  async () => {
    const f = await startFeed()
    const { token } = await f.user('cy@example.com', 'Cy')
    const created = await f.form(token, 'POST', '/feed/post', { title: 'First post here', content: 'Some content here' }, png())
    const id = created.json.post._id as string
    // A GET with a (meaningless) multipart content type is still just a read.
    const read = await f.app.inject({
      method: 'GET',
      url: `/feed/post/${id}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x' }
    })
    assert.equal(read.statusCode, 200, read.body)
    assert.equal((await f.call(undefined, 'GET', '/feed/posts')).status, 401)
    const edited = await f.form(token, 'PUT', `/feed/post/${id}`, {
      title: 'Edited by form',
      content: 'Some content here',
      image: created.json.post.imageUrl
    })
    assert.equal(edited.status, 200, edited.body)
    assert.equal(edited.json.post.title, 'Edited by form')
    const deleted = await f.form(token, 'DELETE', `/feed/post/${id}`, { note: 'ignored' })
    assert.equal(deleted.status, 200, deleted.body)
  }
)
