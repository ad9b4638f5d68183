import { test } from 'node:test'
import assert from 'node:assert/strict'
import { SignJWT, type JWTPayload } from 'jose'
import { createJwtVerifier } from '../../src/core/auth/jwt.js'

const key = new TextEncoder().encode('a-test-secret-of-at-least-32-characters!')
const HOUR = 3600

function sign(claims: JWTPayload): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key)
}

function movableClock(start = Date.UTC(2030, 0, 1)) {
  let now = start
  return {
    now: () => new Date(now),
    seconds: () => Math.floor(now / 1000),
    advance: (s: number) => {
      now += s * 1000
    }
  }
}

test('jwt verifier: a token without exp is rejected, whatever else it carries', async () => {
  const clock = movableClock()
  const verifier = createJwtVerifier({ key, algorithms: ['HS256'], clock: clock.now })
  await assert.rejects(verifier.verify(await sign({ sub: 'ann' })), /"exp" claim/)
  await assert.rejects(verifier.verify(await sign({ sub: 'ann', iat: clock.seconds() })), /"exp" claim/)
})

test('jwt verifier: a lifetime over the cap is rejected (exp - iat, or exp - now without iat)', async () => {
  const clock = movableClock()
  const now = clock.seconds()
  const verifier = createJwtVerifier({ key, algorithms: ['HS256'], clock: clock.now })
  // Default cap: 24 h.
  await assert.rejects(verifier.verify(await sign({ iat: now, exp: now + 24 * HOUR + 60 })), /lifetime/)
  await assert.rejects(verifier.verify(await sign({ exp: now + 30 * 24 * HOUR })), /lifetime/)
  // Issued long ago with a long life, only an hour left: still a long-lived token.
  await assert.rejects(verifier.verify(await sign({ iat: now - 29 * 24 * HOUR, exp: now + HOUR })), /lifetime/)
  // A future iat does not stretch the window.
  await assert.rejects(verifier.verify(await sign({ iat: now + 365 * 24 * HOUR, exp: now + 365 * 24 * HOUR + HOUR })), /lifetime/)

  const strict = createJwtVerifier({ key, algorithms: ['HS256'], clock: clock.now, maxLifetimeSeconds: HOUR })
  await assert.rejects(strict.verify(await sign({ iat: now, exp: now + 2 * HOUR })), /lifetime/)
  assert.equal((await strict.verify(await sign({ iat: now, exp: now + HOUR }))).exp, now + HOUR)
})

test('jwt verifier: normal tokens are accepted, with or without iat', async () => {
  const clock = movableClock()
  const now = clock.seconds()
  const verifier = createJwtVerifier({ key, algorithms: ['HS256'], clock: clock.now })
  assert.equal((await verifier.verify(await sign({ sub: 'ann', iat: now, exp: now + HOUR }))).sub, 'ann')
  assert.equal((await verifier.verify(await sign({ sub: 'bob', exp: now + 12 * HOUR }))).sub, 'bob')
  assert.equal((await verifier.verify(await sign({ sub: 'cy', iat: now, exp: now + 24 * HOUR }))).sub, 'cy')
})

test('jwt verifier: a cached token still expires', async () => {
  const clock = movableClock()
  const now = clock.seconds()
  const verifier = createJwtVerifier({ key, algorithms: ['HS256'], clock: clock.now })
  const token = await sign({ sub: 'ann', iat: now, exp: now + 60 })
  assert.equal((await verifier.verify(token)).sub, 'ann')
  clock.advance(30)
  assert.equal((await verifier.verify(token)).sub, 'ann')
  clock.advance(40)
  await assert.rejects(verifier.verify(token), /"exp" claim timestamp check failed/)
  await assert.rejects(verifier.verify(token), /"exp" claim timestamp check failed/)
})

test('jwt verifier: the cap must be positive', () => {
  assert.throws(() => createJwtVerifier({ key, algorithms: ['HS256'], maxLifetimeSeconds: 0 }), /maxLifetimeSeconds/)
})
