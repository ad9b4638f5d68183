import { test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { startFeed } from '../../helpers/feed.js'

test('sign-up with PUT and POST answers 201 {message, userId}; the password is stored hashed', async () => {
  const f = await startFeed()
  const put = await f.call(undefined, 'PUT', '/auth/signup', { email: 'ann@example.com', name: 'Ann', password: 'secret1' })
  assert.equal(put.status, 201)
  assert.deepEqual(put.json, { message: 'User created!', userId: put.json.userId })
  assert.match(put.json.userId, /^[0-9]+$/)
  const post = await f.call(undefined, 'POST', '/auth/signup', { email: 'bob@example.com', name: 'Bob', password: 'secret2' })
  assert.equal(post.status, 201)
  const rows: any[] = await f.database.db.selectFrom('feed_users').selectAll().orderBy('id').execute()
  assert.equal(rows.length, 2)
  assert.equal(rows[0].status, 'I am new!')
  assert.match(rows[0].password_hash, /^scrypt\$/)
  assert.ok(!rows[0].password_hash.includes('secret1'))
})

test('sign-up validation: 422 "Validation failed." with one express-validator entry per bad field', async () => {
  const f = await startFeed()
  const bad = await f.call(undefined, 'PUT', '/auth/signup', { email: 'not-an-email', name: '   ', password: ' 1234 ' })
  assert.equal(bad.status, 422)
  assert.equal(bad.json.message, 'Validation failed.')
  assert.deepEqual(
    bad.json.data.map((d: any) => [d.location, d.param, d.msg]),
    [
      ['body', 'email', 'Please enter a valid email.'],
      ['body', 'password', 'Password must be at least 5 characters long.'],
      ['body', 'name', 'Please enter a name.']
    ]
  )
  assert.equal(bad.json.data[0].value, 'not-an-email')
  assert.equal(bad.json.data[1].value, undefined, 'passwords are never echoed')

  const empty = await f.call(undefined, 'PUT', '/auth/signup', {})
  assert.equal(empty.status, 422)
  assert.equal(empty.json.data.length, 3)

  const wrongType = await f.call(undefined, 'PUT', '/auth/signup', { email: { $gt: '' }, name: 'x', password: 'secret1' })
  assert.equal(wrongType.status, 422)
  assert.equal(wrongType.json.message, 'Validation failed.')
  assert.equal(wrongType.json.data[0].param, 'email')

  await f.user('Carol@Example.com', 'Carol')
  const dup = await f.call(undefined, 'PUT', '/auth/signup', { email: 'carol@example.COM', name: 'Carol 2', password: 'secret1' })
  assert.equal(dup.status, 422)
  assert.deepEqual(
    dup.json.data.map((d: any) => d.msg),
    ['E-Mail address already exists!']
  )
  assert.equal((await f.database.db.selectFrom('feed_users').selectAll().execute()).length, 1)
})

test('parallel sign-ups with one address: exactly one succeeds, the others get 422', async () => {
  const f = await startFeed()
  const results = await Promise.all(
    Array.from({ length: 6 }, () =>
      f.call(undefined, 'PUT', '/auth/signup', { email: 'race@example.com', name: 'Racer', password: 'secret1' })
    )
  )
  assert.deepEqual(results.map((r) => r.status).sort(), [201, 422, 422, 422, 422, 422])
  assert.equal((await f.database.db.selectFrom('feed_users').selectAll().execute()).length, 1)
})

test('login: 200 {token, userId} with an HS256 token {email, userId} valid one hour; 401 messages of the original', async () => {
  const f = await startFeed()
  const signup = await f.call(undefined, 'PUT', '/auth/signup', { email: 'dan@example.com', name: 'Dan', password: 'secret1' })
  const ok = await f.call(undefined, 'POST', '/auth/login', { email: 'DAN@example.com', password: 'secret1' })
  assert.equal(ok.status, 200)
  assert.deepEqual(Object.keys(ok.json).sort(), ['token', 'userId'])
  assert.equal(ok.json.userId, signup.json.userId)
  assert.equal(decodeProtectedHeader(ok.json.token).alg, 'HS256')
  const claims = decodeJwt(ok.json.token)
  assert.equal(claims.email, 'dan@example.com')
  assert.equal(claims.userId, signup.json.userId)
  assert.equal((claims.exp as number) - (claims.iat as number), 3600)

  const unknown = await f.call(undefined, 'POST', '/auth/login', { email: 'nobody@example.com', password: 'secret1' })
  assert.equal(unknown.status, 401)
  assert.equal(unknown.json.message, 'A user with this email could not be found.')
  const wrong = await f.call(undefined, 'POST', '/auth/login', { email: 'dan@example.com', password: 'secret2' })
  assert.equal(wrong.status, 401)
  assert.equal(wrong.json.message, 'Wrong password!')
  const nothing = await f.call(undefined, 'POST', '/auth/login', {})
  assert.equal(nothing.status, 401)
})

test('protected routes: 401 for a missing, malformed, wrongly signed or expired token', async () => {
  const f = await startFeed()
  const { token } = await f.user('eve@example.com')
  const missing = await f.call(undefined, 'GET', '/feed/posts')
  assert.equal(missing.status, 401)
  assert.equal(missing.json.message, 'Not authenticated.')
  // A valid token without its "Bearer" scheme is refused too (the original read the second part).
  for (const header of [
    'Bearer',
    'Bearer a.b.c',
    'Basic Zm9vOmJhcg==',
    `Bearer ${token.slice(0, -2)}xx`,
    'a b c',
    token,
    `Token ${token}`
  ]) {
    const response = await f.app.inject({ url: '/feed/posts', headers: { authorization: header } })
    assert.equal(response.statusCode, 401, header)
    assert.match(JSON.parse(response.body).message, /^Not authenticated/)
  }
  const other = await startFeed({ env: { JWT_SECRET: 'another-secret-0123456789abcdef0123456789' } })
  const { token: foreign } = await other.user('eve@example.com')
  assert.equal((await f.call(foreign, 'GET', '/feed/posts')).status, 401)

  assert.equal((await f.call(token, 'GET', '/feed/posts')).status, 200)
  f.advanceClock(61 * 60 * 1000)
  const expired = await f.call(token, 'GET', '/feed/posts')
  assert.equal(expired.status, 401)
  assert.match(expired.json.message, /expired/)
})

test('status: GET answers the default, PATCH sets it (trimmed), empty status is 422', async () => {
  const f = await startFeed()
  const { token } = await f.user('fay@example.com')
  assert.deepEqual((await f.call(token, 'GET', '/auth/status')).json, { status: 'I am new!' })
  const patch = await f.call(token, 'PATCH', '/auth/status', { status: '  Out hiking  ' })
  assert.equal(patch.status, 200)
  assert.deepEqual(patch.json, { message: 'User updated.' })
  assert.deepEqual((await f.call(token, 'GET', '/auth/status')).json, { status: 'Out hiking' })
  const empty = await f.call(token, 'PATCH', '/auth/status', { status: '   ' })
  assert.equal(empty.status, 422)
  assert.equal(empty.json.data[0].param, 'status')
  assert.equal((await f.call(undefined, 'GET', '/auth/status')).status, 401)
})

test('a token of a user that no longer exists: status 404 "User not found.", posting 401', async () => {
  const f = await startFeed()
  const { token, userId } = await f.user('gil@example.com')
  await f.database.db.deleteFrom('feed_users').where('id', '=', Number(userId)).execute()
  const status = await f.call(token, 'GET', '/auth/status')
  assert.equal(status.status, 404)
  assert.equal(status.json.message, 'User not found.')
  const post = await f.call(token, 'POST', '/feed/post', { title: 'Hello there', content: 'Some content', imageUrl: 'images/1.png' })
  assert.equal(post.status, 401)
})

test('unknown routes answer JSON 404; CORS allows loopback origins by default', async () => {
  const f = await startFeed()
  const missing = await f.app.inject({ url: '/nope' })
  assert.equal(missing.statusCode, 404)
  assert.match(String(missing.headers['content-type']), /application\/json/)
  assert.equal(JSON.parse(missing.body).code, 'ROUTE_NOT_FOUND')
  const wrongMethod = await f.app.inject({ method: 'DELETE', url: '/feed/posts' })
  assert.equal(wrongMethod.statusCode, 405)
  assert.equal(JSON.parse(wrongMethod.body).code, 'METHOD_NOT_ALLOWED')
  assert.equal(wrongMethod.headers.allow, 'GET, HEAD')
  const preflight = await f.app.inject({
    method: 'OPTIONS',
    url: '/feed/posts',
    headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' }
  })
  assert.equal(preflight.headers['access-control-allow-origin'], 'http://localhost:3000')
  const foreign = await f.app.inject({ url: '/health', headers: { origin: 'https://evil.example' } })
  assert.equal(foreign.headers['access-control-allow-origin'], undefined)
  const foreignPreflight = await f.app.inject({
    method: 'OPTIONS',
    url: '/feed/posts',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' }
  })
  assert.equal(foreignPreflight.statusCode, 403)
  assert.equal(JSON.parse(foreignPreflight.body).code, 'FORBIDDEN')
  assert.equal(foreignPreflight.headers['access-control-allow-origin'], undefined)

  const configured = await startFeed({ env: { FEED_CORS_ORIGINS: 'https://feed.example' } })
  const allowed = await configured.app.inject({ url: '/health', headers: { origin: 'https://feed.example' } })
  assert.equal(allowed.headers['access-control-allow-origin'], 'https://feed.example')
  const loopback = await configured.app.inject({ url: '/health', headers: { origin: 'http://localhost:3000' } })
  assert.equal(loopback.headers['access-control-allow-origin'], undefined)
})
