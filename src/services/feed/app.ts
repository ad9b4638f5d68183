import type { FastifyBaseLogger } from 'fastify'
import cors from '@fastify/cors'
import { sql } from 'kysely'
import type { Config } from '../../core/config/config.js'
import type { Dialect } from '../../core/db/database.js'
import { allowEmptyJsonBodies } from '../../core/http/json-body.js'
import { buildServer, type App } from '../../core/http/server.js'
import { createAuthenticator, type FeedTokens } from './auth.js'
import type { FeedDb } from './db.js'
import { feedErrorFormatter } from './errors.js'
import { attachRealtime, type OriginCheck } from './realtime.js'
import { createImagesRepository } from './modules/images/images.repository.js'
import { createPostsRepository } from './modules/posts/posts.repository.js'
import { createPostsService } from './modules/posts/posts.service.js'
import { createUsersRepository } from './modules/users/users.repository.js'
import { createUsersService } from './modules/users/users.service.js'
import { authRoutes } from './routes/auth.routes.js'
import { imagesRoutes } from './routes/images.routes.js'
import { postsRoutes } from './routes/posts.routes.js'

export interface FeedAppDeps {
  db: FeedDb
  dialect: Dialect
  config: Pick<Config['feed'], 'corsOrigins' | 'imageMaxBytes'>
  tokens: FeedTokens
  logger: FastifyBaseLogger
  clock: () => Date
  redisUrl?: string | undefined
  /** Redis channel prefix of the Socket.IO adapter (tests isolate runs with their own). */
  redisKey?: string | undefined
}

const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/

/**
 * Browser origins allowed by CORS (HTTP and Socket.IO): FEED_CORS_ORIGINS (a list or *), by
 * default any loopback origin (the web client on :3000, Vite's dev server, tests).
 */
export function originCheck(configured: string[] | '*' | undefined): OriginCheck {
  return (origin, callback) => {
    if (!origin || configured === '*') return callback(null, true)
    callback(null, configured ? configured.includes(origin) : LOOPBACK_ORIGIN.test(origin))
  }
}

/** The feed service as a Fastify app with Socket.IO attached to its server (not listening). */
export async function buildFeedApp(deps: FeedAppDeps): Promise<App> {
  const app = await buildServer({
    name: 'feed',
    description: 'Sign-up, login and posts with images; live updates over Socket.IO (event "posts" on this port).',
    logger: deps.logger,
    errorFormatter: feedErrorFormatter,
    healthCheck: async () => { await sql`select 1`.execute(deps.db) },
    openapi: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'token from POST /auth/login (Authorization: Bearer <token>)' } },
      tags: [{ name: 'auth' }, { name: 'feed' }, { name: 'images' }, { name: 'health' }]
    }
  })
  const origin = originCheck(deps.config.corsOrigins)
  await app.register(cors, {
    origin,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id'],
    maxAge: 600
  })
  allowEmptyJsonBodies(app)

  const now = () => deps.clock().toISOString()
  const repositories = {
    users: createUsersRepository(deps.db),
    posts: createPostsRepository(deps.db, deps.dialect),
    images: createImagesRepository(deps.db)
  }
  const events = await attachRealtime(app, {
    origin,
    tokens: deps.tokens,
    logger: deps.logger,
    redisUrl: deps.redisUrl,
    redisKey: deps.redisKey
  })
  const authenticate = createAuthenticator(deps.tokens)
  const users = createUsersService({ users: repositories.users, now, signToken: (claims) => deps.tokens.sign(claims) })
  const posts = createPostsService({ posts: repositories.posts, images: repositories.images, events, now })

  await app.register(authRoutes({ users, authenticate }))
  await app.register(postsRoutes({ posts, authenticate, imageMaxBytes: deps.config.imageMaxBytes }))
  await app.register(imagesRoutes({ images: repositories.images }))
  return app
}
