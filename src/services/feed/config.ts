import { Type } from 'typebox'
import { defineConfigFragment, parseOrigins, Port, type SettingsOf } from '../../core/config/schema.js'

const Limit = (fallback: number, description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000, default: fallback, description })
const Window = (fallback: number, description: string) => Type.Integer({ minimum: 1, maximum: 86400, default: fallback, description })

export const feedConfig = defineConfigFragment({
  service: 'feed',
  schema: Type.Object({
    FEED_PORT: Port(3300, 'feed API port'),
    FEED_CLIENT_PORT: Port(3000, 'feed web client port'),
    JWT_SECRET: Type.Optional(Type.String({ minLength: 32, description: 'HS256 signing secret of the feed (≥ 32 chars)' })),
    MONGODB_URI: Type.Optional(Type.String()),
    FEED_CORS_ORIGINS: Type.Optional(Type.String({ description: 'comma-separated origins, or *' })),
    FEED_SOCKET_ANONYMOUS: Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('true'), Type.Literal('false')], {
      default: '0',
      description:
        '1 lets Socket.IO clients without a token receive live posts (the original course client sends none); ' +
        'default: a login token is required'
    }),
    FEED_REDIS_PREFIX: Type.String({
      minLength: 1,
      maxLength: 100,
      default: 'quartet-feed',
      description: 'Redis channel prefix of the Socket.IO adapter (instances sharing it see each other)'
    }),
    FEED_TOKEN_MAX_LIFETIME: Type.Integer({
      minimum: 60,
      maximum: 30 * 86400,
      default: 86400,
      description: 'longest token lifetime accepted, in seconds (tokens are issued for 1 h; tokens without exp are refused)'
    }),
    FEED_IMAGE_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 100 * 1024 * 1024, default: 5 * 1024 * 1024 }),
    FEED_BODY_TIMEOUT: Type.Integer({
      minimum: 1,
      maximum: 30,
      default: 30,
      description:
        'seconds in which a JSON request body must arrive whole; an upload gets them to get going, then must keep FEED_UPLOAD_MIN_RATE'
    }),
    FEED_UPLOAD_MIN_RATE: Type.Integer({
      minimum: 1,
      maximum: 100 * 1024 * 1024,
      default: 8192,
      description: 'bytes per second an image upload must average (after FEED_BODY_TIMEOUT seconds), or it is cut with 408'
    }),
    FEED_LOGIN_ACCOUNT_MAX_FAILURES: Limit(10, 'failed logins per e-mail address per window (0: no limit); a successful login clears them'),
    FEED_LOGIN_ACCOUNT_WINDOW: Window(900, 'window of FEED_LOGIN_ACCOUNT_MAX_FAILURES, in seconds'),
    FEED_LOGIN_CLIENT_MAX: Limit(30, 'login attempts per client address per window (0: no limit)'),
    FEED_LOGIN_CLIENT_WINDOW: Window(60, 'window of FEED_LOGIN_CLIENT_MAX, in seconds'),
    FEED_SIGNUP_CLIENT_MAX: Limit(20, 'sign-up attempts per client address per window (0: no limit)'),
    FEED_SIGNUP_CLIENT_WINDOW: Window(3600, 'window of FEED_SIGNUP_CLIENT_MAX, in seconds')
  }),
  refine: (env, base) => (base.production && !env.JWT_SECRET ? ['JWT_SECRET: required when QUARTET_ENV=production'] : []),
  resolve: (env) => ({
    port: env.FEED_PORT,
    clientPort: env.FEED_CLIENT_PORT,
    jwtSecret: env.JWT_SECRET,
    mongodbUri: env.MONGODB_URI,
    corsOrigins: env.FEED_CORS_ORIGINS === undefined ? undefined : parseOrigins(env.FEED_CORS_ORIGINS),
    imageMaxBytes: env.FEED_IMAGE_MAX_BYTES,
    bodyTimeoutMs: env.FEED_BODY_TIMEOUT * 1000,
    uploadMinBytesPerSecond: env.FEED_UPLOAD_MIN_RATE,
    socketAnonymous: env.FEED_SOCKET_ANONYMOUS === '1' || env.FEED_SOCKET_ANONYMOUS === 'true',
    redisPrefix: env.FEED_REDIS_PREFIX,
    tokenMaxLifetimeSeconds: env.FEED_TOKEN_MAX_LIFETIME,
    limits: {
      loginPerAccount: { max: env.FEED_LOGIN_ACCOUNT_MAX_FAILURES, windowSeconds: env.FEED_LOGIN_ACCOUNT_WINDOW },
      loginPerClient: { max: env.FEED_LOGIN_CLIENT_MAX, windowSeconds: env.FEED_LOGIN_CLIENT_WINDOW },
      signupPerClient: { max: env.FEED_SIGNUP_CLIENT_MAX, windowSeconds: env.FEED_SIGNUP_CLIENT_WINDOW }
    }
  })
})

export type FeedSettings = SettingsOf<typeof feedConfig>
