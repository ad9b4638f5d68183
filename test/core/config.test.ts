import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ConfigError, loadConfig } from '../../src/core/config/config.js'

test('config: defaults are applied and typed', () => {
  const config = loadConfig({})
  assert.equal(config.host, '127.0.0.1')
  assert.equal(config.ports.trips, 3200)
  assert.equal(config.trips.compat, 'seed')
  assert.equal(config.databaseUrl, undefined)
})

test('config: one error lists every bad key, and never echoes secret values', () => {
  try {
    loadConfig({ TRIPS_PORT: '99999', TRIPS_COMPAT: 'legacy', DATABASE_URL: 'mysql://root:hunter2@db/x', JWT_SECRET: 'short-secret-hunter2' })
    assert.fail('expected a ConfigError')
  } catch (error) {
    assert.ok(error instanceof ConfigError)
    const keys = error.problems.map((p) => p.split(':')[0]).sort()
    assert.deepEqual(keys, ['DATABASE_URL', 'JWT_SECRET', 'TRIPS_COMPAT', 'TRIPS_PORT'])
    assert.doesNotMatch(error.message, /hunter2/)
    assert.match(error.message, /TRIPS_PORT: .*65535.*"99999"/)
  }
})

test('config: flags override the environment; empty variables count as unset', () => {
  const config = loadConfig({ TRIPS_PORT: '4000', HOST: '' }, { TRIPS_PORT: 5000 })
  assert.equal(config.ports.trips, 5000)
  assert.equal(config.host, '127.0.0.1')
})

test('config: production needs real secrets and an identity provider', () => {
  assert.throws(() => loadConfig({ QUARTET_ENV: 'production' }), (e: unknown) =>
    e instanceof ConfigError && e.problems.some((p) => p.startsWith('JWT_SECRET')) && e.problems.some((p) => p.startsWith('TRIPS_JWKS_URL')))
  assert.throws(() => loadConfig({ TRIPS_JWKS_URL: 'https://idp.example/.well-known/jwks.json' }), /TRIPS_ISSUER and TRIPS_AUDIENCE/)
})
