import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ConfigError, loadConfig, settingsOf } from '../../src/core/config/config.js'
import { configFragments } from '../../src/cli/registry.js'
import { tripsConfig } from '../../src/services/trips/config.js'
import { feedConfig } from '../../src/services/feed/config.js'
import { marketplaceConfig } from '../../src/services/marketplace/config.js'

const all = configFragments()

test('config: defaults are applied and typed', () => {
  const config = loadConfig({}, {}, all)
  assert.equal(config.host, '127.0.0.1')
  assert.equal(settingsOf(config, tripsConfig).port, 3200)
  assert.equal(settingsOf(config, tripsConfig).compat, 'seed')
  assert.equal(settingsOf(config, feedConfig).clientPort, 3000)
  assert.equal(settingsOf(config, marketplaceConfig).compat, 'g2')
  assert.equal(config.databaseUrl, undefined)
  assert.equal(config.shutdownMs, 10_000)
})

test('config: one error lists every bad key, and never echoes secret values', () => {
  try {
    loadConfig(
      { TRIPS_PORT: '99999', TRIPS_COMPAT: 'legacy', DATABASE_URL: 'mysql://root:hunter2@db/x', JWT_SECRET: 'short-secret-hunter2' },
      {},
      all
    )
    assert.fail('expected a ConfigError')
  } catch (error) {
    assert.ok(error instanceof ConfigError)
    const keys = error.problems.map((p) => p.split(':')[0]).sort()
    assert.deepEqual(keys, ['DATABASE_URL', 'JWT_SECRET', 'TRIPS_COMPAT', 'TRIPS_PORT'])
    assert.doesNotMatch(error.message, /hunter2/)
    assert.match(error.message, /TRIPS_PORT: .*65535.*"99999"/)
  }
})

test('config: MARKETPLACE_COMPAT takes g2 or g1; seed is the earlier name of g1', () => {
  for (const [value, compat] of [
    ['g2', 'g2'],
    ['g1', 'g1'],
    ['seed', 'g1']
  ])
    assert.equal(settingsOf(loadConfig({ MARKETPLACE_COMPAT: value }, {}, all), marketplaceConfig).compat, compat)
  assert.throws(() => loadConfig({ MARKETPLACE_COMPAT: 'g3' }, {}, all), ConfigError)
})

test('config: flags override the environment; empty variables count as unset', () => {
  const config = loadConfig({ TRIPS_PORT: '4000', HOST: '' }, { TRIPS_PORT: 5000 }, all)
  assert.equal(settingsOf(config, tripsConfig).port, 5000)
  assert.equal(config.host, '127.0.0.1')
})

test('config: production needs real secrets and an identity provider — of the services being started only', () => {
  assert.throws(
    () => loadConfig({ QUARTET_ENV: 'production' }, {}, all),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.problems.some((p) => p.startsWith('JWT_SECRET')) &&
      e.problems.some((p) => p.startsWith('TRIPS_JWKS_URL'))
  )
  assert.throws(
    () => loadConfig({ TRIPS_JWKS_URL: 'https://idp.example/.well-known/jwks.json' }, {}, [tripsConfig]),
    /TRIPS_ISSUER and TRIPS_AUDIENCE/
  )

  const feedOnly = loadConfig({ QUARTET_ENV: 'production', JWT_SECRET: 'x'.repeat(40) }, {}, [feedConfig])
  assert.equal(feedOnly.production, true)
  assert.equal(settingsOf(feedOnly, feedConfig).jwtSecret, 'x'.repeat(40))
  // Commands that need no service settings (marketplace keys) load the base alone.
  assert.equal(loadConfig({ QUARTET_ENV: 'production' }, {}, []).production, true)
  // Keys of services not being started are not validated either.
  assert.doesNotThrow(() => loadConfig({ TRIPS_PORT: 'abc' }, {}, [feedConfig]))
})

test('config: reading the settings of a service whose fragment was not loaded is a programming error', () => {
  assert.throws(() => settingsOf(loadConfig({}, {}, [feedConfig]), tripsConfig), /configuration of trips was not loaded/)
})
