import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createVersionedCache } from '../../src/core/versioned-cache.js'

/** Computations that count themselves and can be held in flight until release(). */
function computer() {
  let runs = 0
  const gates: (() => void)[] = []
  return {
    get runs() {
      return runs
    },
    held<T>(value: T) {
      return () => {
        runs++
        return new Promise<T>((resolve) => gates.push(() => resolve(value)))
      }
    },
    now<T>(value: T) {
      return async () => {
        runs++
        return value
      }
    },
    release() {
      for (const open of gates.splice(0)) open()
    }
  }
}

test('a value is computed once per version, concurrent callers share the computation, a new version computes again', async () => {
  let now = 1_000
  const cache = createVersionedCache<string, string>({ maxAgeMs: 1000, maxEntries: 8, now: () => now })
  const c = computer()
  const concurrent = [
    cache.get('status', 'r1', c.held('one')),
    cache.get('status', 'r1', c.held('other')),
    cache.get('status', 'r1', c.held('other'))
  ]
  c.release()
  assert.deepEqual(await Promise.all(concurrent), ['one', 'one', 'one'])
  assert.equal(c.runs, 1)
  assert.equal(await cache.get('status', 'r1', c.now('again')), 'one')
  assert.equal(c.runs, 1)
  assert.equal(await cache.get('status', 'r2', c.now('two')), 'two')
  assert.equal(await cache.get('tasks', 'r2', c.now('tasks')), 'tasks')
  assert.equal(c.runs, 3)
  // Same version, but as old as the limit: computed again (it holds ages).
  now += 1000
  assert.equal(await cache.get('status', 'r2', c.now('two, later')), 'two, later')
  // A clock set back makes every kept value suspect.
  now -= 5000
  assert.equal(await cache.get('status', 'r2', c.now('two, earlier')), 'two, earlier')
  assert.equal(c.runs, 5)
})

test('an earlier, slower computation never replaces a newer value; a failed one is not kept and fails all its waiters', async () => {
  const cache = createVersionedCache<string, string>({ maxEntries: 8 })
  const c = computer()
  const slow = cache.get('status', 'old', c.held('old view'))
  assert.equal(await cache.get('status', 'new', c.now('new view')), 'new view')
  c.release()
  assert.equal(await slow, 'old view')
  assert.equal(await cache.get('status', 'new', c.now('unexpected')), 'new view')

  let fail: (error: Error) => void = () => {}
  const failing = () => new Promise<string>((_, reject) => (fail = reject))
  const waiters = [cache.get('tasks', 'new', failing), cache.get('tasks', 'new', c.now('unexpected'))]
  fail(new Error('database gone'))
  for (const waiter of waiters) await assert.rejects(waiter, /database gone/)
  assert.equal(await cache.get('tasks', 'new', c.now('tasks')), 'tasks')
})

test('versions that only grow: an older value goes at once, a newer one is never replaced by an older computation', async () => {
  const cache = createVersionedCache<Buffer, number>({ maxBytes: 1000, sizeOf: (b) => b.length, compareVersions: (a, b) => a - b })
  const c = computer()
  const body = (n: number) => Buffer.alloc(n, 'x')
  await cache.get('a', 2, c.now(body(100)))
  assert.equal((await cache.get('a', 2, c.now(body(1)))).length, 100)
  // A request that read version 1 (concurrent with the write that made 2) computes, but does not replace 2.
  assert.equal((await cache.get('a', 1, c.now(body(50)))).length, 50)
  assert.equal((await cache.get('a', 2, c.now(body(1)))).length, 100)
  assert.deepEqual(cache.stats(), { entries: 1, bytes: 100 })
  // Version 3: the entry at 2 can never be current again and leaves before 3 is computed.
  const third = cache.get('a', 3, c.held(body(30)))
  assert.deepEqual(cache.stats(), { entries: 0, bytes: 0 })
  c.release()
  assert.equal((await third).length, 30)
  assert.deepEqual(cache.stats(), { entries: 1, bytes: 30 })
})

test('bounded by bytes: least recently used first out, a value over a quarter of the budget not kept, resized values count', async () => {
  const cache = createVersionedCache<{ body: Buffer; extra: number }, number>({
    maxBytes: 1000,
    sizeOf: (v) => v.body.length + v.extra
  })
  const c = computer()
  const value = (n: number) => ({ body: Buffer.alloc(n, 'x'), extra: 0 })
  for (let i = 0; i < 5; i++) await cache.get(`k${i}`, 1, c.now(value(200)))
  assert.deepEqual(cache.stats(), { entries: 5, bytes: 1000 })
  await cache.get('k0', 1, c.now(value(1))) // a hit makes k0 the most recently used
  await cache.get('k5', 1, c.now(value(200)))
  assert.deepEqual(cache.stats(), { entries: 5, bytes: 1000 })
  const runs = c.runs
  assert.equal((await cache.get('k0', 1, c.now(value(1)))).body.length, 200, 'k0 was used: kept')
  assert.equal((await cache.get('k1', 1, c.now(value(1)))).body.length, 1, 'k1 was the least recently used: gone')
  assert.equal(c.runs, runs + 1)

  const huge = await cache.get('huge', 1, c.now(value(251)))
  assert.equal((await cache.get('huge', 1, c.now(value(1)))) === huge, false, 'over a quarter of the budget: not kept')

  // A value that grows after it was kept (an encoding added to it) counts with its new size, and may evict.
  const sized = createVersionedCache<{ body: Buffer; extra: number }, number>({ maxBytes: 1000, sizeOf: (v) => v.body.length + v.extra })
  const a = await sized.get('a', 1, c.now(value(200)))
  const b = await sized.get('b', 1, c.now(value(200)))
  a.extra = 100
  sized.resized('a', a)
  assert.deepEqual(sized.stats(), { entries: 2, bytes: 500 })
  sized.resized('b', value(999))
  assert.deepEqual(sized.stats(), { entries: 2, bytes: 500 }, 'not the kept value: ignored')
  b.extra = 700
  sized.resized('b', b)
  assert.deepEqual(sized.stats(), { entries: 1, bytes: 900 }, 'a, the least recently used, went')
  assert.equal(await sized.get('b', 1, c.now(value(1))), b)

  const off = createVersionedCache<Buffer, number>({ maxBytes: 0, sizeOf: (b) => b.length })
  await off.get('a', 1, c.now(Buffer.alloc(0)))
  assert.equal(off.size, 0, 'a budget of 0 keeps nothing')
})

test('bounded by count: past maxEntries the least recently used tenth goes at once', async () => {
  const small = createVersionedCache<string, string>({ maxEntries: 2 })
  const c = computer()
  for (const key of ['a', 'b', 'c']) await small.get(key, 'r', c.now(key))
  assert.equal(small.size, 2)
  assert.equal(await small.get('a', 'r', c.now('a again')), 'a again')
  assert.equal(await small.get('c', 'r', c.now('unexpected')), 'c')

  const cache = createVersionedCache<number, string>({ maxEntries: 20 })
  for (let i = 0; i < 20; i++) await cache.get(`k${i}`, 'r', c.now(i))
  for (let i = 0; i < 20; i += 2) await cache.get(`k${i}`, 'r', c.now(-1)) // even keys used again
  await cache.get('k20', 'r', c.now(20))
  assert.equal(cache.size, 19, 'two (a tenth) went for the one stored')
  assert.equal(await cache.get('k1', 'r', c.now(-1)), -1, 'k1 went')
  assert.equal(await cache.get('k0', 'r', c.now(-2)), 0, 'k0 was used again: kept')
})

test('versionOf keeps a value under the version it read itself; keep() decides what is kept', async () => {
  type Page = { version: string; rows: string[] } | null
  const cache = createVersionedCache<Page, string>({
    maxEntries: 8,
    versionOf: (page) => page!.version,
    keep: (page) => page !== null
  })
  const c = computer()
  // Asked at v1, but the read itself saw v2 (a write committed in between): kept as v2.
  const page = await cache.get('q', 'v1', c.now<Page>({ version: 'v2', rows: ['new'] }))
  assert.equal(await cache.get('q', 'v2', c.now<Page>(null)), page)
  assert.equal(await cache.get('q', 'v1', c.now<Page>(null)), null, 'not kept under the version asked for')
  assert.equal(await cache.get('q', 'v2', c.now<Page>(null)), page, 'and a failed read (null) does not replace it')
})

test('keepFromSecondComputation: one-off keys are not kept, so they do not evict the keys read again', async () => {
  const cache = createVersionedCache<string, string>({ maxEntries: 2, keepFromSecondComputation: true })
  const c = computer()
  await cache.get('hot', 'v', c.now('hot'))
  assert.equal(cache.size, 0, 'the first computation of a key is not kept')
  await cache.get('hot', 'v', c.now('hot'))
  assert.equal(cache.size, 1)
  for (let i = 0; i < 10; i++) await cache.get(`once ${i}`, 'v', c.now('once'))
  const runs = c.runs
  assert.equal(await cache.get('hot', 'v', c.now('unexpected')), 'hot')
  assert.equal(c.runs, runs)
})

test('options that cannot work are refused', () => {
  assert.throws(() => createVersionedCache({ maxBytes: 10 }), /maxBytes needs sizeOf/)
  assert.throws(() => createVersionedCache({ maxEntries: -1 }), /must not be negative/)
  assert.throws(() => createVersionedCache({ keepFromSecondComputation: true }), /finite maxEntries/)
})
