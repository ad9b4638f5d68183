import { after } from 'node:test'
import type { App } from '../../src/core/http/server.js'
import { settingsOf } from '../../src/core/config/config.js'
import { TRIPS_PREFIX } from '../../src/services/trips/app.js'
import { loadDevSigningKey, signDevToken } from '../../src/services/trips/auth.js'
import { tripsConfig } from '../../src/services/trips/config.js'
import { tripsService } from '../../src/services/trips/index.js'
import { tripsMigrations } from '../../src/services/trips/migrations/index.js'
import { createTestDatabase, type TestDatabase } from './db.js'
import { buildService, testConfig } from './config.js'
import { injectJson, type InjectedResponse } from './inject.js'

export interface TripsHarness {
  app: App
  database: TestDatabase
  token(email: string): Promise<string>
  /** Authenticated inject: method, path under /api/private/v1, optional JSON body. */
  call(email: string, method: string, path: string, body?: unknown): Promise<InjectedResponse>
}

/** The trips app on a fresh test database with development tokens; closed after the test file. */
export async function startTrips(env: Record<string, string> = {}): Promise<TripsHarness> {
  const config = testConfig(env)
  const database = await createTestDatabase([tripsMigrations])
  const { app, release } = await buildService(tripsService, config, database)
  await app.ready()
  after(async () => {
    await app.close()
    await release()
    await database.close()
  })
  const devKey = settingsOf(config, tripsConfig).jwksUrl ? undefined : loadDevSigningKey(config.dataDir)
  const tokens = new Map<string, string>()
  async function token(email: string) {
    if (!devKey) throw new Error('startTrips: tokens need the development key (no TRIPS_JWKS_URL)')
    let t = tokens.get(email)
    if (!t) {
      t = await signDevToken(devKey, email, 3600)
      tokens.set(email, t)
    }
    return t
  }
  return {
    app,
    database,
    token,
    async call(email, method, path, body) {
      return injectJson(app, { method, url: `${TRIPS_PREFIX}${path}`, token: await token(email), body })
    }
  }
}
