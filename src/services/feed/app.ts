import type { FastifyBaseLogger } from 'fastify'
import type { RedisConnections } from '../../core/redis.js'
import type { FeedSettings } from './config.js'
import type { Dialect } from '../../core/db/database.js'
import { createServer, type App } from '../../core/http/server.js'
import { corsPolicy } from '../../core/http/plugins/cors.js'
import { health } from '../../core/http/plugins/health.js'
import { databaseHealthCheck } from '../../core/http/plugins/database-health.js'
import { inputSanity } from '../../core/http/plugins/input-sanity.js'
import { bodyDeadlines } from '../../core/http/plugins/body-deadline.js'
import { openApiDocs } from '../../core/http/plugins/openapi.js'
import { requestLog } from '../../core/http/plugins/request-log.js'
import { securityHeaders } from '../../core/http/plugins/security-headers.js'
import { createGuard } from '../../core/http/guard.js'
import { createAuthenticator, type FeedTokens } from './auth.js'
import type { FeedDb } from './db.js'
import { feedErrorFormatter } from './errors.js'
import { createImagesRepository } from './modules/images/images.repository.js'
import { imagesRoutes } from './modules/images/images.routes.js'
import { createPostsRepository } from './modules/posts/posts.repository.js'
import { postsRoutes } from './modules/posts/posts.routes.js'
import { createPostsService } from './modules/posts/posts.service.js'
import { attachRealtime, type OriginCheck } from './modules/realtime/realtime.gateway.js'
import { createUsersRepository } from './modules/users/users.repository.js'
import { usersRoutes } from './modules/users/users.routes.js'
import { createUsersService } from './modules/users/users.service.js'
import { createAttemptLimiter } from './modules/users/attempt-limits.js'
import { createMemoryCounters, createRedisCounters } from '../../core/rate-limit.js'

export interface FeedAppDeps {
  db: FeedDb
  dialect: Dialect
  config: Pick<FeedSettings, 'corsOrigins' | 'imageMaxBytes' | 'socketAnonymous' | 'limits' | 'bodyTimeoutMs' | 'uploadMinBytesPerSecond'>
  tokens: FeedTokens
  logger: FastifyBaseLogger
  clock: () => Date
  /** With Redis, Socket.IO broadcasts reach the clients of every instance and the attempt limits are shared. */
  redis?: RedisConnections | undefined
  /** Redis prefix of the Socket.IO adapter and the attempt counters (tests isolate runs with their own). */
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

/** An upload ends within this however fast it is (FEED_UPLOAD_MIN_RATE cuts slow ones much earlier). */
const UPLOAD_BACKSTOP_MS = 15 * 60_000
const MULTIPART = /^\s*multipart\//i

/** The feed service as a Fastify app with Socket.IO attached to its server (not listening). */
export async function buildFeedApp(deps: FeedAppDeps): Promise<App> {
  const app = createServer({
    logger: deps.logger,
    errorFormatter: feedErrorFormatter,
    validationCode: 'FEED_VALIDATION_FAILED',
    // Every live listener holds a Socket.IO connection, and many browsers share one address behind
    // a NAT. Uploads of up to FEED_IMAGE_MAX_BYTES on slow links need more than 30 s: the request
    // timeout is only a backstop; bodyDeadlines below times JSON bodies and upload rates.
    connections: { maxConnectionsPerClient: 4096, requestTimeout: UPLOAD_BACKSTOP_MS, headersTimeout: 20_000 }
  })
  bodyDeadlines(app, {
    bodyMs: deps.config.bodyTimeoutMs,
    upload: {
      isUpload: (request) => MULTIPART.test(request.headers['content-type'] ?? ''),
      graceMs: deps.config.bodyTimeoutMs,
      minBytesPerSecond: deps.config.uploadMinBytesPerSecond
    }
  })
  inputSanity(app)
  securityHeaders(app)
  requestLog(app)
  const origin = originCheck(deps.config.corsOrigins)
  await corsPolicy(app, { origin, maxAge: 600 })
  await openApiDocs(app, {
    name: 'feed',
    description: 'Sign-up, login and posts with images; live updates over Socket.IO (event "posts" on this port).',
    credentials:
      'Create an account with `PUT /auth/signup` (email, name, password of at least 5 characters), then `POST /auth/login` with ' +
      "the same email and password: the response's `token` goes under **Authorize** (`Authorization: Bearer <token>`).",
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'token from POST /auth/login (`Authorization: Bearer <token>`)'
      }
    },
    tags: [{ name: 'auth' }, { name: 'feed' }, { name: 'images' }, { name: 'health' }]
  })
  health(app, { name: 'feed', check: databaseHealthCheck(deps.db) })

  const now = () => deps.clock().toISOString()
  const repositories = {
    users: createUsersRepository(deps.db),
    posts: createPostsRepository(deps.db, deps.dialect),
    images: createImagesRepository(deps.db)
  }
  const events = await attachRealtime(app, {
    origin,
    tokens: deps.tokens,
    allowAnonymous: deps.config.socketAnonymous,
    clock: deps.clock,
    logger: deps.logger,
    redis: deps.redis,
    redisKey: deps.redisKey
  })
  const caller = createGuard('feed', createAuthenticator(deps.tokens))
  const counters = deps.redis
    ? createRedisCounters(await deps.redis.connect('feed-limits'), `${deps.redisKey ?? 'quartet-feed'}:limits`)
    : createMemoryCounters({ clock: deps.clock })
  const limiter = createAttemptLimiter(counters, deps.config.limits)
  const users = createUsersService({ users: repositories.users, limiter, now, signToken: (claims) => deps.tokens.sign(claims) })
  const posts = createPostsService({ posts: repositories.posts, images: repositories.images, events, now })

  // The registration order is the OpenAPI path order.
  await app.register(usersRoutes({ users, caller }))
  await app.register(postsRoutes({ posts, caller, imageMaxBytes: deps.config.imageMaxBytes }))
  await app.register(imagesRoutes({ images: repositories.images }))
  return app
}
