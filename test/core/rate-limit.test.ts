import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { clientKey, createMemoryCounters, createRedisCounters, type RateCounters } from '../../src/core/rate-limit.js'

async function windowBehaviour(counters: RateCounters, advance: (ms: number) => Promise<void>) {
  assert.deepEqual((await counters.hit('a', 1000)).count, 1)
  const second = await counters.hit('a', 1000)
  assert.equal(second.count, 2)
  assert.ok(second.resetInMs > 0 && second.resetInMs <= 1000, String(second.resetInMs))
  assert.equal((await counters.hit('b', 1000)).count, 1, 'keys count apart')
  await counters.reset('a')
  assert.equal((await counters.hit('a', 1000)).count, 1, 'reset starts a new window')
  await advance(1100)
  assert.equal((await counters.hit('a', 1000)).count, 1, 'an ended window starts again')
  // Parallel hits are counted exactly once each.
  const counts = await Promise.all(Array.from({ length: 50 }, () => counters.hit('c', 60_000)))
  assert.deepEqual(
    counts.map((c) => c.count).sort((x, y) => x - y),
    Array.from({ length: 50 }, (_, i) => i + 1)
  )
}

test('memory counters: fixed windows, reset, exact counts, bounded keys', async () => {
  let now = 1_000_000
  const counters = createMemoryCounters({ clock: () => new Date(now) })
  await windowBehaviour(counters, async (ms) => {
    now += ms
  })

  const small = createMemoryCounters({ clock: () => new Date(now), maxKeys: 3 })
  for (const key of ['k1', 'k2', 'k3', 'k4']) await small.hit(key, 60_000)
  assert.equal((await small.hit('k4', 60_000)).count, 2, 'the newest key is kept')
  assert.equal((await small.hit('k1', 60_000)).count, 1, 'the oldest key was dropped')
})

test('Redis counters: the same behaviour, and every key expires', async (t) => {
  const url = process.env.REDIS_URL
  if (!url) {
    t.skip('needs REDIS_URL')
    return
  }
  const client = new Redis(url)
  after(() => client.quit())
  const prefix = `quartet-test-limits-${randomBytes(6).toString('hex')}`
  await windowBehaviour(createRedisCounters(client, prefix), (ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  const keys = await client.keys(`${prefix}:*`)
  assert.ok(keys.length > 0)
  for (const key of keys) assert.ok((await client.pttl(key)) > 0, `${key} has an expiry`)
  await client.del(...keys)
})

test('client keys: IPv4 (also IPv4-mapped) as is, IPv6 by its /64', () => {
  assert.equal(clientKey('203.0.113.7'), '203.0.113.7')
  assert.equal(clientKey('::ffff:203.0.113.7'), '203.0.113.7')
  assert.equal(clientKey('2001:db8:1::1'), '2001:db8:1:0::/64')
  assert.equal(clientKey('2001:0db8:0001:0000:ffff::9'), '2001:db8:1:0::/64')
  assert.equal(clientKey('2001:db8:1:0:1:2:3:4'), '2001:db8:1:0::/64')
  assert.notEqual(clientKey('2001:db8:2::1'), clientKey('2001:db8:1::1'))
  assert.equal(clientKey('::1'), '0:0:0:0::/64')
  assert.equal(clientKey('fe80::1%eth0'), 'fe80:0:0:0::/64')
})
