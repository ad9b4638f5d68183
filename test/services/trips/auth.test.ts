import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { SignJWT, base64url } from 'jose'
import { startTestIdentityProvider } from '../../helpers/idp.js'
import { testConfig } from '../../helpers/config.js'
import { createTestDatabase } from '../../helpers/db.js'
import { silentLogger } from '../../../src/core/logger.js'
import { buildTripsApp, TRIPS_PREFIX } from '../../../src/services/trips/app.js'
import { createAuthenticator, createTripsVerifier } from '../../../src/services/trips/auth.js'
import { tripsMigrations } from '../../../src/services/trips/migrations/index.js'
import { tripsConfig } from '../../../src/services/trips/config.js'
import { settingsOf } from '../../../src/core/config/config.js'
import type { TripsDb } from '../../../src/services/trips/db.js'

test('trips verifies tokens of an external identity provider (JWKS over HTTP)', async (t) => {
  const idp = await startTestIdentityProvider()
  const config = testConfig({
    TRIPS_JWKS_URL: idp.jwksUrl,
    TRIPS_ISSUER: idp.issuer,
    TRIPS_AUDIENCE: idp.audience,
    TRIPS_EMAIL_CLAIM: 'https://quartet.test/email'
  })
  const database = await createTestDatabase([tripsMigrations])
  const { verifier, mode } = createTripsVerifier(settingsOf(config, tripsConfig), config.dataDir, () => new Date())
  assert.equal(mode, 'jwks')
  const app = await buildTripsApp({
    db: database.db as TripsDb,
    config: settingsOf(config, tripsConfig),
    authenticate: createAuthenticator(verifier, settingsOf(config, tripsConfig).emailClaim),
    logger: silentLogger(),
    clock: () => new Date()
  })
  after(async () => {
    await app.close()
    await database.close()
    await idp.close()
  })

  const claim = { 'https://quartet.test/email': 'ann@example.com' }
  // A user can only be created for the token's own e-mail.
  const createUser = (authorization: string | undefined, email = 'ann@example.com') =>
    app.inject({
      method: 'POST',
      url: `${TRIPS_PREFIX}/user`,
      headers: { 'content-type': 'application/json', ...(authorization !== undefined ? { authorization } : {}) },
      payload: JSON.stringify({ user_name: 'ann', email_address: email })
    })

  await t.test('a valid RS256 token is accepted, with or without the Bearer prefix', async () => {
    const token = await idp.mint(claim)
    assert.equal((await createUser(`Bearer ${token}`)).statusCode, 200)
    const bare = await idp.mint({ 'https://quartet.test/email': 'bea@example.com' })
    assert.equal((await createUser(bare, 'bea@example.com')).statusCode, 200)
  })

  const rejected: [string, () => Promise<string | undefined>][] = [
    ['no authorization header', async () => undefined],
    ['an empty header', async () => ''],
    ['a non-bearer scheme', async () => `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['garbage', async () => 'Bearer not.a.jwt'],
    ['a wrong issuer', async () => `Bearer ${await idp.mint(claim, { issuer: 'https://evil.example/' })}`],
    ['a wrong audience', async () => `Bearer ${await idp.mint(claim, { audience: 'someone-else' })}`],
    ['an expired token', async () => `Bearer ${await idp.mint(claim, { expiresIn: -120 })}`],
    ['a signature by an unpublished key', async () => `Bearer ${await idp.mint(claim, { key: 'rogue' })}`],
    ['an unknown key id', async () => `Bearer ${await idp.mint(claim, { kid: 'nope' })}`],
    [
      'alg none',
      async () => {
        const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))
        const payload = base64url.encode(
          JSON.stringify({ ...claim, iss: idp.issuer, aud: idp.audience, exp: Math.floor(Date.now() / 1000) + 600 })
        )
        return `Bearer ${header}.${payload}.`
      }
    ],
    [
      'an HS256 token signed with the public key material',
      async () => {
        const jwks = (await (await fetch(idp.jwksUrl)).json()) as { keys: { n: string }[] }
        const forged = await new SignJWT(claim)
          .setProtectedHeader({ alg: 'HS256', kid: 'test-key-1' })
          .setIssuer(idp.issuer)
          .setAudience(idp.audience)
          .setExpirationTime('10m')
          .sign(new TextEncoder().encode(jwks.keys[0]?.n ?? 'x'))
        return `Bearer ${forged}`
      }
    ],
    ['a token without the e-mail claim', async () => `Bearer ${await idp.mint({ email: 'ann@example.com' })}`]
  ]
  for (const [name, header] of rejected) {
    await t.test(`401 {"errors":["Not Authenticated"]} for ${name}`, async () => {
      const response = await createUser(await header())
      assert.equal(response.statusCode, 401)
      assert.deepEqual(response.json(), { errors: ['Not Authenticated'] })
      assert.match(String(response.headers['www-authenticate']), /^Bearer/)
    })
  }

  await t.test('nothing is written by rejected requests', async () => {
    const rows = await database.db.selectFrom('trips_users').select('id').execute()
    assert.equal(rows.length, 2)
  })

  await t.test('/health and /openapi.json need no token', async () => {
    assert.equal((await app.inject({ url: '/health' })).statusCode, 200)
    const doc = (await app.inject({ url: '/openapi.json' })).json()
    assert.equal(doc.openapi, '3.1.0')
    assert.ok(doc.paths['/api/private/v1/user/{email_address}'])
  })
})

test('a cached token still stops working when it expires', async () => {
  const idp = await startTestIdentityProvider()
  let now = Date.now()
  const config = testConfig({ TRIPS_JWKS_URL: idp.jwksUrl, TRIPS_ISSUER: idp.issuer, TRIPS_AUDIENCE: idp.audience })
  const { verifier } = createTripsVerifier(settingsOf(config, tripsConfig), config.dataDir, () => new Date(now))
  after(() => idp.close())
  const token = await idp.mint({ email: 'ann@example.com' }, { expiresIn: 60 })
  assert.equal((await verifier.verify(token)).email, 'ann@example.com')
  assert.equal((await verifier.verify(token)).email, 'ann@example.com')
  now += 120_000
  await assert.rejects(verifier.verify(token))
})
