import type { ServiceDefinition } from '../../core/service.js'
import { fingerprint } from '../../core/secrets.js'
import { buildTripsApp } from './app.js'
import { createAuthenticator, createTripsVerifier } from './auth.js'
import type { TripsDb } from './db.js'
import { tripsMigrations } from './migrations/index.js'

export const tripsService: ServiceDefinition = {
  name: 'trips',
  description: 'trip-planning REST API',
  migrations: tripsMigrations,
  async create({ config, database, logger, clock }) {
    const { verifier, mode, devKey } = createTripsVerifier(config, clock)
    const app = await buildTripsApp({
      db: database.db as TripsDb,
      config: config.trips,
      authenticate: createAuthenticator(verifier, config.trips.emailClaim),
      logger: logger.child({ service: 'trips' }),
      clock
    })
    const notes = mode === 'jwks'
      ? [`auth: tokens from ${config.trips.issuer} (JWKS ${config.trips.jwksUrl}, audience ${config.trips.audience})`]
      : [
          `auth: development signing key ${fingerprint(devKey?.secret.value ?? '')} in ${devKey?.secret.file}`,
          '      get a token: quartet token trips --email you@example.com'
        ]
    if (config.trips.compat === 'original') notes.push('compat: original (boolean complete, timestamp dates, user lookup as array)')
    if (config.trips.authz === 'open') notes.push('authz: open (no ownership checks; any valid token may change anything)')
    return { app, notes }
  }
}
