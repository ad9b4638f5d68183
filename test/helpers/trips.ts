import { after } from 'node:test'
import { silentLogger } from '../../src/core/logger.js'
import type { App } from '../../src/core/http/server.js'
import { buildTripsApp, TRIPS_PREFIX } from '../../src/services/trips/app.js'
import { createAuthenticator, createTripsVerifier, signDevToken } from '../../src/services/trips/auth.js'
import type { TripsDb } from '../../src/services/trips/db.js'
import { tripsMigrations } from '../../src/services/trips/migrations/index.js'
import { createTestDatabase, type TestDatabase } from './db.js'
import { testConfig } from './config.js'

export interface TripsHarness {
  app: App
  database: TestDatabase
  token(email: string): Promise<string>
  /** Authenticated inject: method, path under /api/private/v1, optional JSON body. */
  call(email: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any; body: string }>
}

/** The trips app on a fresh test database with development tokens; closed after the test file. */
export async function startTrips(env: Record<string, string> = {}): Promise<TripsHarness> {
  const config = testConfig(env)
  const database = await createTestDatabase([tripsMigrations])
  const clock = () => new Date()
  const { verifier, devKey } = createTripsVerifier(config, clock)
  const app = await buildTripsApp({
    db: database.db as TripsDb,
    config: config.trips,
    authenticate: createAuthenticator(verifier, config.trips.emailClaim),
    logger: silentLogger(),
    clock
  })
  await app.ready()
  after(async () => {
    await app.close()
    await database.close()
  })
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
      const response = await app.inject({
        method: method as 'GET',
        url: `${TRIPS_PREFIX}${path}`,
        headers: { authorization: `Bearer ${await token(email)}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {})
      })
      let json: unknown
      try { json = response.body ? JSON.parse(response.body) : undefined } catch { json = undefined }
      return { status: response.statusCode, json, body: response.body }
    }
  }
}
