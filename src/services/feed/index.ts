import { selfCommandLine } from '../../core/cli/self-command.js'
import type { ServiceDefinition, StartedService, StartupNote } from '../../core/service.js'
import { feedConfig, type FeedSettings } from './config.js'
import { ServiceStartError } from '../../core/service.js'
import { fingerprint } from '../../core/secrets.js'
import { registerServerSecret } from '../../core/http/redact-url.js'
import { buildFeedApp } from './app.js'
import { createFeedTokens, resolveJwtSecret } from './auth.js'
import { buildFeedClientServer, feedClientBuilt } from './client-server.js'
import type { FeedDb } from './db.js'
import { feedMigrations } from './migrations/index.js'
import { feedApiUrl } from './credential-hint.js'

function describeLimits({ loginPerAccount: account, loginPerClient: login, signupPerClient: signup }: FeedSettings['limits']): string {
  const limit = (what: string, l: { max: number; windowSeconds: number }) =>
    l.max === 0 ? `${what} off` : `${l.max} ${what} per ${l.windowSeconds} s`
  return [limit('failed logins per e-mail', account), limit('logins per client', login), limit('sign-ups per client', signup)].join(', ')
}

export const feedService: ServiceDefinition<FeedSettings> = {
  name: 'feed',
  description: 'signup/login/posts REST API with images and Socket.IO live updates, plus its web client',
  migrations: feedMigrations,
  config: feedConfig,
  async create({ config, settings, database, logger, platform, redis }) {
    const clock = platform.clock
    if (settings.mongodbUri) {
      throw new ServiceStartError(
        'MONGODB_URI is set, but MongoDB is not a supported store: the feed keeps its data in SQLite (default, in QUARTET_DATA_DIR) ' +
          'or PostgreSQL. Unset MONGODB_URI, and use DATABASE_URL=postgres://… to share one database between instances.'
      )
    }
    const { secret, generated } = resolveJwtSecret(settings.jwtSecret, config.dataDir)
    registerServerSecret(secret)
    const feedLogger = logger.child({ service: 'feed' })
    const app = await buildFeedApp({
      db: database.db as FeedDb,
      dialect: database.dialect,
      config: settings,
      tokens: createFeedTokens(secret, clock, settings.tokenMaxLifetimeSeconds),
      logger: feedLogger,
      clock,
      redis,
      redisKey: settings.redisPrefix
    })
    const notes: StartupNote[] = [
      generated
        ? {
            warning:
              `auth: WARNING no JWT_SECRET set; using a development secret (fingerprint ${fingerprint(secret)}) ` +
              `kept in ${generated.file}. Set JWT_SECRET in production.`
          }
        : `auth: JWT_SECRET (fingerprint ${fingerprint(secret)}); sign up with PUT /auth/signup, log in with POST /auth/login`,
      { hint: 'get a token', command: selfCommandLine(['feed', 'token', '--api', feedApiUrl(config, settings)]) },
      `live: Socket.IO event "posts" on this port${redis ? ', shared across instances through Redis' : ''}` +
        (settings.socketAnonymous ? ' (anonymous listeners allowed: FEED_SOCKET_ANONYMOUS)' : ' (login token required)'),
      `limits: ${describeLimits(settings.limits)} (counted ${redis ? 'in Redis, shared across instances' : 'in this process'})`
    ]
    const started: StartedService = { app, notes }
    if (feedClientBuilt()) {
      started.companions = [
        {
          name: 'feed-client',
          port: settings.clientPort,
          create: (apiUrl) => buildFeedClientServer({ apiUrl, logger: feedLogger.child({ component: 'feed-client' }) })
        }
      ]
    } else {
      notes.push('web client: not built, so not started (run npm run build)')
    }
    return started
  }
}
