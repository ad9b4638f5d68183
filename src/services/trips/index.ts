import { selfCommandLine } from '../../core/cli/self-command.js'
import type { ServiceDefinition, StartupNote } from '../../core/service.js'
import { tripsConfig, type TripsSettings } from './config.js'
import { fingerprint } from '../../core/secrets.js'
import { buildTripsApp } from './app.js'
import { createAuthenticator, createTripsVerifier } from './auth.js'
import type { TripsDb } from './db.js'
import { tripsMigrations } from './migrations/index.js'

export const tripsService: ServiceDefinition<TripsSettings> = {
  name: 'trips',
  description: 'trip-planning REST API',
  migrations: tripsMigrations,
  config: tripsConfig,
  async create({ config, settings, database, logger, platform }) {
    const clock = platform.clock
    const { verifier, mode, devKey } = createTripsVerifier(settings, config.dataDir, clock)
    const app = await buildTripsApp({
      db: database.db as TripsDb,
      config: settings,
      authenticate: createAuthenticator(verifier, settings.emailClaim),
      logger: logger.child({ service: 'trips' }),
      clock
    })
    const notes: StartupNote[] =
      mode === 'jwks'
        ? [`auth: tokens from ${settings.issuer} (JWKS ${settings.jwksUrl}, audience ${settings.audience})`]
        : [
            `auth: development signing key ${fingerprint(devKey?.secret.value ?? '')} in ${devKey?.secret.file}`,
            { hint: 'get a token', command: selfCommandLine(['token', 'trips', '--email', 'you@example.com']) }
          ]
    if (settings.compat === 'original') notes.push('compat: original (boolean complete, timestamp dates, user lookup as array)')
    if (settings.authz === 'open') notes.push('authz: open (no ownership checks; any valid token may change anything)')
    return { app, notes }
  }
}
