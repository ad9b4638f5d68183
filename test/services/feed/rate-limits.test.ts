import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { startFeed, type FeedHarness } from '../../helpers/feed.js'
import { injectedResponse, type InjectedResponse } from '../../helpers/inject.js'

/** A login (or other JSON request) from a given client address. */
async function from(feed: FeedHarness, address: string, method: 'POST' | 'PUT', url: string, body: unknown): Promise<InjectedResponse> {
  return injectedResponse(
    await feed.app.inject({
      method,
      url,
      remoteAddress: address,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body)
    })
  )
}
const login = (feed: FeedHarness, address: string, email: string, password: string) =>
  from(feed, address, 'POST', '/auth/login', { email, password })

function assertLimited(res: InjectedResponse, code: string, maxSeconds: number) {
  assert.equal(res.status, 429, res.body)
  assert.deepEqual(Object.keys(res.json).sort(), ['code', 'message'])
  assert.equal(res.json.code, code)
  const retryAfter = String(res.headers['retry-after'])
  assert.match(retryAfter, /^\d+$/)
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= maxSeconds, retryAfter)
}

const tally = (responses: InjectedResponse[]) => {
  const counts: Record<string, number> = {}
  for (const r of responses) {
    const key = r.status === 429 ? `429 ${r.json.code}` : String(r.status)
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

test('login limits (defaults: 10 failures per e-mail per 15 min, 30 attempts per client per minute)', async (t) => {
  const feed = await startFeed()
  await feed.user('ann@example.com', 'Ann', 'right-password')
  await feed.user('bob@example.com', 'Bob', 'right-password')

  await t.test('300 wrong passwords at once from one client: 10 are checked (401), 290 refused with 429 and retry-after', async () => {
    const responses = await Promise.all(Array.from({ length: 300 }, (_, i) => login(feed, '203.0.113.7', 'ann@example.com', `guess-${i}`)))
    assert.deepEqual(tally(responses), { 401: 10, '429 FEED_LOGIN_LOCKED': 20, '429 FEED_TOO_MANY_ATTEMPTS': 270 })
    for (const r of responses) {
      if (r.json.code === 'FEED_LOGIN_LOCKED') assertLimited(r, 'FEED_LOGIN_LOCKED', 900)
      if (r.json.code === 'FEED_TOO_MANY_ATTEMPTS') assertLimited(r, 'FEED_TOO_MANY_ATTEMPTS', 60)
    }
    // The account is locked for everyone until its window ends, the right password included.
    assertLimited(await login(feed, '198.51.100.1', 'ann@example.com', 'right-password'), 'FEED_LOGIN_LOCKED', 900)
  })

  await t.test('while one client is limited, the right password from another client still logs in', async () => {
    // bob's account is untouched; the limited client is limited for every account.
    assertLimited(await login(feed, '203.0.113.7', 'bob@example.com', 'right-password'), 'FEED_TOO_MANY_ATTEMPTS', 60)
    const ok = await login(feed, '198.51.100.2', 'bob@example.com', 'right-password')
    assert.equal(ok.status, 200, ok.body)
    assert.equal(typeof ok.json.token, 'string')
  })

  await t.test('the client window ends after a minute, the account window after 15 minutes', async () => {
    feed.advanceClock(61_000)
    assertLimited(await login(feed, '203.0.113.7', 'ann@example.com', 'right-password'), 'FEED_LOGIN_LOCKED', 900)
    assert.equal((await login(feed, '203.0.113.7', 'bob@example.com', 'right-password')).status, 200)
    feed.advanceClock(15 * 60_000)
    assert.equal((await login(feed, '203.0.113.7', 'ann@example.com', 'right-password')).status, 200)
  })
})

test('failures count per e-mail across client addresses; a success clears them; unknown e-mails lock alike', async () => {
  const feed = await startFeed()
  await feed.user('cat@example.com', 'Cat', 'right-password')

  // Nine failures, then a success: the count starts again.
  for (let i = 0; i < 9; i++) assert.equal((await login(feed, `192.0.2.${i + 1}`, 'cat@example.com', 'wrong')).status, 401)
  assert.equal((await login(feed, '192.0.2.100', 'Cat@Example.com', 'right-password')).status, 200)
  // Ten failures from ten addresses (each far under its own limit), in any spelling of the address.
  for (let i = 0; i < 10; i++) {
    const res = await login(feed, `192.0.2.${i + 20}`, i % 2 ? 'CAT@example.com' : ' cat@example.com ', 'wrong')
    assert.equal(res.status, 401, `failure ${i + 1}`)
  }
  assertLimited(await login(feed, '192.0.2.50', 'cat@example.com', 'wrong'), 'FEED_LOGIN_LOCKED', 900)
  assertLimited(await login(feed, '192.0.2.51', 'cat@example.com', 'right-password'), 'FEED_LOGIN_LOCKED', 900)

  // An address without an account answers the same way, so a 429 reveals nothing about accounts.
  const unknown = []
  for (let i = 0; i < 11; i++) unknown.push(await login(feed, `192.0.2.${i + 60}`, 'nobody@example.com', 'wrong'))
  assert.deepEqual(tally(unknown), { 401: 10, '429 FEED_LOGIN_LOCKED': 1 })
})

test('sign-up: 20 attempts per client address per hour (also invalid ones); other clients unaffected', async () => {
  const feed = await startFeed()
  const signup = (address: string, email: string) => from(feed, address, 'PUT', '/auth/signup', { email, name: 'N', password: 'secret123' })
  assert.equal((await signup('203.0.113.9', 'bad-address')).status, 422)
  for (let i = 1; i < 20; i++) assert.equal((await signup('203.0.113.9', `u${i}@example.com`)).status, 201)
  const refused = await signup('203.0.113.9', 'u20@example.com')
  assertLimited(refused, 'FEED_TOO_MANY_ATTEMPTS', 3600)
  assert.equal(
    await feed.database.db.selectFrom('feed_users').select('id').where('email_key', '=', 'u20@example.com').executeTakeFirst(),
    undefined
  )
  // POST is the same route as PUT.
  assertLimited(
    await from(feed, '203.0.113.9', 'POST', '/auth/signup', { email: 'u21@example.com', name: 'N', password: 'secret123' }),
    'FEED_TOO_MANY_ATTEMPTS',
    3600
  )
  assert.equal((await signup('2001:db8:1::1', 'u20@example.com')).status, 201)
  // One IPv6 host holds a /64: its other addresses share the count.
  for (let i = 2; i <= 20; i++) assert.equal((await signup(`2001:db8:1::${i.toString(16)}`, `v${i}@example.com`)).status, 201)
  assertLimited(await signup('2001:db8:1:0:ffff::9', 'v21@example.com'), 'FEED_TOO_MANY_ATTEMPTS', 3600)
  assert.equal((await signup('2001:db8:2::1', 'v21@example.com')).status, 201)
})

test('limits are configurable, and 0 turns one off', async () => {
  const feed = await startFeed({ env: { FEED_LOGIN_ACCOUNT_MAX_FAILURES: '0', FEED_LOGIN_CLIENT_MAX: '3', FEED_LOGIN_CLIENT_WINDOW: '5' } })
  await feed.user('dan@example.com', 'Dan', 'right-password')
  // The harness's own login was the client's first attempt.
  const responses = []
  for (let i = 0; i < 4; i++) responses.push(await login(feed, '127.0.0.1', 'dan@example.com', 'wrong'))
  assert.deepEqual(tally(responses), { 401: 2, '429 FEED_TOO_MANY_ATTEMPTS': 2 })
  assertLimited(responses[3]!, 'FEED_TOO_MANY_ATTEMPTS', 5)
  // No per-account limit: other clients keep failing with 401.
  for (let i = 0; i < 12; i++) assert.equal((await login(feed, `192.0.2.${i + 1}`, 'dan@example.com', 'wrong')).status, 401)
})

test('two instances on one Redis share the counts', async (t) => {
  const redisUrl = process.env.REDIS_URL
  if (!redisUrl) {
    t.skip('needs REDIS_URL')
    return
  }
  const redisKey = `quartet-feed-test-${randomBytes(6).toString('hex')}`
  const one = await startFeed({ redisUrl, redisKey })
  const two = await startFeed({ redisUrl, redisKey, database: one.database })
  await one.user('eve@example.com', 'Eve', 'right-password')

  // Failures alternate between the instances; the eleventh is refused by either.
  for (let i = 0; i < 10; i++) {
    const res = await login(i % 2 ? two : one, `192.0.2.${i + 1}`, 'eve@example.com', 'wrong')
    assert.equal(res.status, 401, `failure ${i + 1}`)
  }
  assertLimited(await login(one, '192.0.2.77', 'eve@example.com', 'wrong'), 'FEED_LOGIN_LOCKED', 900)
  assertLimited(await login(two, '192.0.2.78', 'eve@example.com', 'right-password'), 'FEED_LOGIN_LOCKED', 900)

  // Per client too: 30 attempts spread over both, then both refuse that client, in parallel as well.
  const attempts = await Promise.all(
    Array.from({ length: 40 }, (_, i) => login(i % 2 ? two : one, '203.0.113.50', `x${i}@example.com`, 'wrong'))
  )
  assert.deepEqual(tally(attempts), { 401: 30, '429 FEED_TOO_MANY_ATTEMPTS': 10 })

  // An instance with another prefix (another deployment on the same Redis) counts on its own.
  const other = await startFeed({ redisUrl, redisKey: `${redisKey}-other`, database: one.database })
  assert.equal((await login(other, '203.0.113.50', 'eve@example.com', 'right-password')).status, 200)
})
