import { test } from 'node:test'
import assert from 'node:assert/strict'
import { makeJpeg, makePng, png, startFeed, type FeedHarness } from '../../helpers/feed.js'

async function createPost(f: FeedHarness, token: string, title = 'A first post', content = 'Some content here') {
  const response = await f.form(token, 'POST', '/feed/post', { title, content }, png())
  assert.equal(response.status, 201, response.body)
  return response.json.post
}

async function imageCount(f: FeedHarness): Promise<number> {
  return (await f.database.db.selectFrom('feed_images').select('id').execute()).length
}

test('create (multipart): 201 with the post, creator {_id, name}; the image is served with type, ETag and cache headers', async () => {
  const f = await startFeed()
  const { token, userId } = await f.user('ann@example.com', 'Ann')
  const bytes = makePng([200, 30, 30])
  const created = await f.form(token, 'POST', '/feed/post', { title: '  Hello world  ', content: 'Some content' }, png('red.png', bytes))
  assert.equal(created.status, 201)
  assert.equal(created.json.message, 'Post created successfully!')
  const post = created.json.post
  assert.equal(post.title, 'Hello world')
  assert.deepEqual(post.creator, { _id: userId, name: 'Ann' })
  assert.deepEqual(created.json.creator, { _id: userId, name: 'Ann' })
  assert.match(post.imageUrl, /^images\/[0-9]+\.png$/)
  assert.match(post.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  assert.ok(!JSON.stringify(created.json).includes('password'))

  const image = await f.app.inject({ url: `/${post.imageUrl}` })
  assert.equal(image.statusCode, 200)
  assert.equal(image.headers['content-type'], 'image/png')
  assert.equal(image.headers['cache-control'], 'public, max-age=31536000, immutable')
  assert.ok(image.rawPayload.equals(bytes))
  const etag = String(image.headers.etag)
  assert.match(etag, /^"[0-9a-f]{64}"$/)
  const cached = await f.app.inject({ url: `/${post.imageUrl}`, headers: { 'if-none-match': etag } })
  assert.equal(cached.statusCode, 304)
  assert.equal(cached.body, '')
  assert.equal((await f.app.inject({ url: `/${post.imageUrl}`, headers: { 'if-none-match': '"other"' } })).statusCode, 200)
  const missing = await f.app.inject({ url: '/images/999.png' })
  assert.equal(missing.statusCode, 404)
  assert.equal(JSON.parse(missing.body).message, 'Image not found.')
  assert.equal((await f.app.inject({ url: `/${post.imageUrl.replace('.png', '.jpg')}` })).statusCode, 404)

  const jpeg = await f.form(
    token,
    'POST',
    '/feed/post',
    { title: 'A jpeg post', content: 'Some content' },
    { filename: 'x.jpeg', contentType: 'image/jpeg', bytes: makeJpeg() }
  )
  assert.equal(jpeg.status, 201)
  assert.match(jpeg.json.post.imageUrl, /\.jpg$/)
  assert.equal((await f.app.inject({ url: `/${jpeg.json.post.imageUrl}` })).headers['content-type'], 'image/jpeg')
})

test('create: validation and image problems are 422 with clear messages, and nothing is stored', async () => {
  const f = await startFeed({ env: { FEED_IMAGE_MAX_BYTES: '2048' } })
  const { token } = await f.user('bob@example.com')
  const short = await f.form(token, 'POST', '/feed/post', { title: ' abc ', content: 'abcd' }, png())
  assert.equal(short.status, 422)
  assert.equal(short.json.message, 'Validation failed, entered data is incorrect.')
  assert.deepEqual(
    short.json.data.map((d: any) => d.param),
    ['title', 'content']
  )

  const noImage = await f.form(token, 'POST', '/feed/post', { title: 'Hello world', content: 'Some content' })
  assert.equal(noImage.status, 422)
  assert.equal(noImage.json.message, 'No image provided.')
  const undefinedImage = await f.form(token, 'POST', '/feed/post', { title: 'Hello world', content: 'Some content', image: 'undefined' })
  assert.equal(undefinedImage.json.message, 'No image provided.')

  const gif = await f.form(
    token,
    'POST',
    '/feed/post',
    { title: 'Hello world', content: 'Some content' },
    { filename: 'fake.png', contentType: 'image/png', bytes: Buffer.from('GIF89a not really a png') }
  )
  assert.equal(gif.status, 422)
  assert.equal(gif.json.code, 'FEED_IMAGE_INVALID')
  assert.match(gif.json.message, /PNG or JPEG/)

  const big = await f.form(
    token,
    'POST',
    '/feed/post',
    { title: 'Hello world', content: 'Some content' },
    png('big.png', Buffer.concat([makePng(), Buffer.alloc(4096)]))
  )
  assert.equal(big.status, 422)
  assert.equal(big.json.code, 'FEED_IMAGE_TOO_LARGE')
  assert.match(big.json.message, /larger than the limit of 2048 bytes/)

  const twoFiles = await f.app.inject({
    method: 'POST',
    url: '/feed/post',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=b' },
    payload:
      '--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nxx\r\n' +
      '--b\r\nContent-Disposition: form-data; name="image"; filename="b.png"\r\n\r\nyy\r\n--b--\r\n'
  })
  assert.equal(twoFiles.statusCode, 422)

  const truncated = await f.app.inject({
    method: 'POST',
    url: '/feed/post',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=b' },
    payload:
      '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello world\r\n' +
      '--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n\x89PNG'
  })
  assert.equal(truncated.statusCode, 400)
  assert.equal(JSON.parse(truncated.body).code, 'FEED_MULTIPART_INVALID')

  const json = await f.call(token, 'POST', '/feed/post', { title: 'Hello world', content: 'Some content', imageUrl: 'images/42.png' })
  assert.equal(json.status, 422)
  assert.equal(json.json.code, 'FEED_IMAGE_UNKNOWN')
  assert.equal((await f.database.db.selectFrom('feed_posts').selectAll().execute()).length, 0)
  assert.equal(await imageCount(f), 0)
})

test('list: newest first, 2 per page by default, perPage up to 100, totalItems', async () => {
  const f = await startFeed()
  const { token } = await f.user('cat@example.com')
  const ids: string[] = []
  for (let i = 1; i <= 5; i++) ids.push((await createPost(f, token, `Post number ${i}`))._id)
  const page1 = await f.call(token, 'GET', '/feed/posts')
  assert.equal(page1.status, 200)
  assert.equal(page1.json.message, 'Fetched posts successfully.')
  assert.equal(page1.json.totalItems, 5)
  assert.deepEqual(
    page1.json.posts.map((p: any) => p._id),
    [ids[4], ids[3]]
  )
  assert.equal(page1.json.posts[0].creator.name, 'Tester')
  const page3 = await f.call(token, 'GET', '/feed/posts?page=3')
  assert.deepEqual(
    page3.json.posts.map((p: any) => p._id),
    [ids[0]]
  )
  assert.deepEqual((await f.call(token, 'GET', '/feed/posts?page=9')).json.posts, [])
  const all = await f.call(token, 'GET', '/feed/posts?perPage=100')
  assert.deepEqual(
    all.json.posts.map((p: any) => p._id),
    [...ids].reverse()
  )
  for (const bad of ['page=0', 'page=abc', 'perPage=101', 'perPage=0', 'page=-1']) {
    const response = await f.call(token, 'GET', `/feed/posts?${bad}`)
    assert.equal(response.status, 422, bad)
    assert.equal(response.json.message, 'Validation failed.')
    assert.equal(response.json.data[0].location, 'query')
  }
})

test('get one: 200 "Post fetched." with creator; unknown or malformed ids are 404 "Could not find post."', async () => {
  const f = await startFeed()
  const { token } = await f.user('dan@example.com', 'Dan')
  const post = await createPost(f, token)
  const got = await f.call(token, 'GET', `/feed/post/${post._id}`)
  assert.equal(got.status, 200)
  assert.deepEqual(got.json, { message: 'Post fetched.', post })
  for (const id of ['999', '5f1d7f0b2c3a4b5c6d7e8f90', '-1', '1.5']) {
    const missing = await f.call(token, 'GET', `/feed/post/${id}`)
    assert.equal(missing.status, 404, id)
    assert.equal(missing.json.message, 'Could not find post.')
  }
})

test('update: the image path keeps the image, a new file replaces it and removes the old one; 403 for others', async () => {
  const f = await startFeed()
  const ann = await f.user('ann@example.com', 'Ann')
  const bob = await f.user('bob@example.com', 'Bob')
  const post = await createPost(f, ann.token)

  // The original client re-sends the old path in the field image.
  const keep = await f.form(ann.token, 'PUT', `/feed/post/${post._id}`, {
    title: 'Edited title',
    content: 'Edited content',
    image: post.imageUrl
  })
  assert.equal(keep.status, 200)
  assert.equal(keep.json.message, 'Post updated!')
  assert.equal(keep.json.post.title, 'Edited title')
  assert.equal(keep.json.post.imageUrl, post.imageUrl)
  assert.deepEqual(keep.json.post.creator, post.creator)

  const json = await f.call(ann.token, 'PUT', `/feed/post/${post._id}`, {
    title: 'JSON edited',
    content: 'JSON content',
    imageUrl: `http://127.0.0.1:3300/${post.imageUrl}`
  })
  assert.equal(json.status, 200)
  assert.equal(json.json.post.imageUrl, post.imageUrl)

  const noFile = await f.form(ann.token, 'PUT', `/feed/post/${post._id}`, { title: 'Edited title', content: 'Edited content' })
  assert.equal(noFile.status, 422)
  assert.equal(noFile.json.message, 'No file picked.')

  const replaced = await f.form(
    ann.token,
    'PUT',
    `/feed/post/${post._id}`,
    { title: 'New image', content: 'Edited content', image: post.imageUrl },
    png('new.png', makePng([1, 2, 3]))
  )
  assert.equal(replaced.status, 200)
  assert.notEqual(replaced.json.post.imageUrl, post.imageUrl)
  assert.equal((await f.app.inject({ url: `/${post.imageUrl}` })).statusCode, 404, 'the old image is removed')
  assert.equal((await f.app.inject({ url: `/${replaced.json.post.imageUrl}` })).statusCode, 200)
  assert.equal(await imageCount(f), 1)

  const forbidden = await f.form(bob.token, 'PUT', `/feed/post/${post._id}`, {
    title: 'Hijacked!',
    content: 'Hijacked!',
    image: replaced.json.post.imageUrl
  })
  assert.equal(forbidden.status, 403)
  assert.equal(forbidden.json.message, 'Not authorized!')
  // Bob cannot pin Ann's image to a post of his own either.
  const bobPost = await createPost(f, bob.token, 'Bob writes')
  const steal = await f.call(bob.token, 'PUT', `/feed/post/${bobPost._id}`, {
    title: 'Bob writes',
    content: 'Some content',
    imageUrl: replaced.json.post.imageUrl
  })
  assert.equal(steal.status, 422)
  assert.equal(steal.json.code, 'FEED_IMAGE_UNKNOWN')

  const missing = await f.form(ann.token, 'PUT', '/feed/post/999', {
    title: 'Edited title',
    content: 'Edited content',
    image: post.imageUrl
  })
  assert.equal(missing.status, 404)
  const stored = await f.call(ann.token, 'GET', `/feed/post/${post._id}`)
  assert.equal(stored.json.post.title, 'New image')
})

test('delete: 200 "Deleted post.", the image goes unless another post shows it; 403 and 404', async () => {
  const f = await startFeed()
  const ann = await f.user('ann@example.com')
  const bob = await f.user('bob@example.com')
  const post = await createPost(f, ann.token)
  // A second post re-using the same image (JSON body with an existing imageUrl).
  const twin = await f.call(ann.token, 'POST', '/feed/post', { title: 'Twin post', content: 'Same picture', imageUrl: post.imageUrl })
  assert.equal(twin.status, 201)
  assert.equal(twin.json.post.imageUrl, post.imageUrl)

  const forbidden = await f.call(bob.token, 'DELETE', `/feed/post/${post._id}`)
  assert.equal(forbidden.status, 403)
  assert.equal(forbidden.json.message, 'Not authorized!')

  const deleted = await f.call(ann.token, 'DELETE', `/feed/post/${post._id}`)
  assert.equal(deleted.status, 200)
  assert.deepEqual(deleted.json, { message: 'Deleted post.' })
  assert.equal((await f.app.inject({ url: `/${post.imageUrl}` })).statusCode, 200, 'still shown by the twin')
  assert.equal((await f.call(ann.token, 'DELETE', `/feed/post/${post._id}`)).status, 404)

  assert.equal((await f.call(ann.token, 'DELETE', `/feed/post/${twin.json.post._id}`)).status, 200)
  assert.equal((await f.app.inject({ url: `/${post.imageUrl}` })).statusCode, 404)
  assert.equal(await imageCount(f), 0)
  assert.equal((await f.call(ann.token, 'GET', '/feed/posts')).json.totalItems, 0)
})

test('the OpenAPI document lists every feed route with tags, summaries and the multipart body', async () => {
  const f = await startFeed()
  const doc = f.app.swagger() as any
  const expected = [
    ['/auth/signup', 'put'],
    ['/auth/signup', 'post'],
    ['/auth/login', 'post'],
    ['/auth/status', 'get'],
    ['/auth/status', 'patch'],
    ['/feed/posts', 'get'],
    ['/feed/post', 'post'],
    ['/feed/post/{postId}', 'get'],
    ['/feed/post/{postId}', 'put'],
    ['/feed/post/{postId}', 'delete'],
    ['/images/{file}', 'get']
  ]
  for (const [path, method] of expected) {
    const operation = doc.paths[path as string]?.[method as string]
    assert.ok(operation, `${method} ${path}`)
    assert.ok(operation.summary && operation.tags?.length, `${method} ${path} has summary and tags`)
  }
  const body = doc.paths['/feed/post'].post.requestBody.content
  assert.ok(body['multipart/form-data'].schema.properties.image)
  assert.ok(body['application/json'].schema.properties.imageUrl)
})
