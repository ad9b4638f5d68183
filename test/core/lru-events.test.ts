import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Redis } from 'ioredis'
import { createLocalEventBus, createRedisEventBus } from '../../src/core/events/bus.js'
import { createLru } from '../../src/core/lru.js'

test('lru: keeps at most maxEntries, drops the least recently used, a hit refreshes', () => {
  const lru = createLru<string, number>(2)
  lru.set('a', 1)
  lru.set('b', 2)
  assert.equal(lru.get('a'), 1) // a is now the most recent
  lru.set('c', 3)
  assert.equal(lru.get('b'), undefined)
  assert.deepEqual([lru.get('a'), lru.get('c'), lru.size], [1, 3, 2])
  lru.delete('a')
  assert.equal(lru.size, 1)
  assert.throws(() => createLru(0), /positive/)
})

test('lru: a full map drops its least recently used tenth at once; recently read entries stay', () => {
  const lru = createLru<number, number>(100)
  for (let i = 0; i < 100; i++) lru.set(i, i)
  for (let i = 0; i < 50; i++) lru.get(i)
  lru.set(100, 100)
  assert.equal(lru.size, 91)
  for (let i = 0; i < 50; i++) assert.equal(lru.get(i), i, `read entry ${i} kept`)
  for (let i = 50; i < 60; i++) assert.equal(lru.get(i), undefined, `entry ${i} dropped`)
  for (let i = 60; i <= 100; i++) assert.equal(lru.get(i), i)
  lru.set(5, 55)
  assert.deepEqual([lru.get(5), lru.size], [55, 91], 'setting a present key replaces it')
})

test('event bus (in-process): typed publish/subscribe, unsubscribe stops delivery', async () => {
  const bus = createLocalEventBus<{ tick: { n: number } }>()
  const seen: number[] = []
  const off = bus.subscribe('tick', (payload) => seen.push(payload.n))
  await bus.publish('tick', { n: 1 })
  off()
  await bus.publish('tick', { n: 2 })
  assert.deepEqual(seen, [1])
  await bus.close()
})

test(
  'event bus (Redis pub/sub): an event published by one instance reaches the other',
  { skip: process.env.REDIS_URL ? false : 'REDIS_URL is unset' },
  async () => {
    const url = process.env.REDIS_URL as string
    const clients = [new Redis(url), new Redis(url), new Redis(url), new Redis(url)]
    const prefix = `quartet-test-${Date.now().toString(36)}`
    const one = createRedisEventBus<{ ping: { from: string } }>(clients[0] as Redis, clients[1] as Redis, prefix)
    const two = createRedisEventBus<{ ping: { from: string } }>(clients[2] as Redis, clients[3] as Redis, prefix)
    try {
      const received = new Promise<{ from: string }>((resolve) => {
        two.subscribe('ping', resolve)
      })
      // The subscription is set up asynchronously: publish until it lands.
      let delivered: { from: string } | undefined
      void received.then((payload) => {
        delivered = payload
      })
      for (let i = 0; i < 50 && !delivered; i++) {
        await one.publish('ping', { from: 'one' })
        await new Promise((r) => setTimeout(r, 50))
      }
      assert.deepEqual(delivered, { from: 'one' })
    } finally {
      await one.close()
      await two.close()
      await Promise.all(clients.map((client) => client.quit()))
    }
  }
)
