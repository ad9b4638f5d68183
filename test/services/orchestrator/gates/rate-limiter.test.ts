import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createSlidingWindowLimiter } from '../../../../src/services/orchestrator/gates/rate-limiter.js'

test('sliding window: max per window, Retry-After until the oldest hit leaves, then allowed again', () => {
  let now = 1_000_000
  const limiter = createSlidingWindowLimiter({ max: 3, windowMs: 60_000, now: () => now })
  assert.equal(limiter.hit('a').allowed, true)
  now += 20_000
  assert.equal(limiter.hit('a').allowed, true)
  assert.equal(limiter.hit('a').allowed, true)
  const refused = limiter.hit('a')
  assert.deepEqual(refused, { allowed: false, retryAfterMs: 40_000 })
  // A fixed window would reset here; the sliding one frees exactly one slot when the first hit expires.
  now += 40_000
  assert.equal(limiter.hit('a').allowed, true)
  assert.equal(limiter.hit('a').allowed, false)
  assert.equal(limiter.hit('b').allowed, true)
})

test('max 0 disables the limiter', () => {
  const limiter = createSlidingWindowLimiter({ max: 0, windowMs: 1000 })
  for (let i = 0; i < 1000; i++) assert.equal(limiter.hit('a').allowed, true)
  assert.equal(limiter.size, 0)
})

test('the client map stays bounded: idle clients go first, then the least recently seen', () => {
  let now = 0
  const limiter = createSlidingWindowLimiter({ max: 2, windowMs: 1000, maxClients: 100, now: () => now })
  for (let i = 0; i < 100; i++) limiter.hit(`old-${i}`)
  now = 5000
  limiter.hit('fresh')
  assert.equal(limiter.size, 1, 'expired clients were swept')
  for (let i = 0; i < 10_000; i++) limiter.hit(`c-${i}`)
  assert.ok(limiter.size <= 100, String(limiter.size))
  // A client that keeps hitting stays remembered (and limited) while others churn.
  limiter.hit('busy')
  limiter.hit('busy')
  for (let i = 0; i < 50; i++) limiter.hit(`churn-${i}`)
  assert.equal(limiter.hit('busy').allowed, false)
})
