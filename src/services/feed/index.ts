import type { ServiceDefinition, StartedService } from '../../core/service.js'
import { ServiceStartError } from '../../core/service.js'
import { fingerprint } from '../../core/secrets.js'
import { buildFeedApp } from './app.js'
import { createFeedTokens, resolveJwtSecret } from './auth.js'
import { buildFeedClientServer, feedClientBuilt } from './client-server.js'
import type { FeedDb } from './db.js'
import { feedMigrations } from './migrations/index.js'

export const feedService: ServiceDefinition = {
  name: 'feed',
  description: 'signup/login/posts REST API with images and Socket.IO live updates, plus its web client',
  migrations: feedMigrations,
  async create({ config, database, logger, clock }) {
    if (config.feed.mongodbUri) {
      throw new ServiceStartError(
        'MONGODB_URI is set, but MongoDB is not a supported store: the feed keeps its data in SQLite (default, in QUARTET_DATA_DIR) ' +
        'or PostgreSQL. Unset MONGODB_URI, and use DATABASE_URL=postgres://… to share one database between instances.'
      )
    }
    const { secret, generated } = resolveJwtSecret(config)
    const feedLogger = logger.child({ service: 'feed' })
    const app = await buildFeedApp({
      db: database.db as FeedDb,
      dialect: database.dialect,
      config: config.feed,
      tokens: createFeedTokens(secret, clock),
      logger: feedLogger,
      clock,
      redisUrl: config.redisUrl
    })
    const notes = [
      generated
        ? `auth: WARNING no JWT_SECRET set; using a development secret (fingerprint ${fingerprint(secret)}) kept in ${generated.file}. Set JWT_SECRET in production.`
        : `auth: JWT_SECRET (fingerprint ${fingerprint(secret)}); sign up with PUT /auth/signup, log in with POST /auth/login`,
      `live: Socket.IO event "posts" on this port${config.redisUrl ? ', shared across instances through Redis' : ''}`
    ]
    const started: StartedService = { app, notes }
    if (feedClientBuilt()) {
      started.companions = [{
        name: 'feed-client',
        port: config.ports.feedClient,
        create: (apiUrl) => buildFeedClientServer({ apiUrl, logger: feedLogger.child({ component: 'feed-client' }) })
      }]
    } else {
      notes.push('web client: not built, so not started (run npm run build)')
    }
    return started
  }
}
