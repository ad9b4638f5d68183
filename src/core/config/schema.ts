import { Type, type Static } from 'typebox'

const Port = (defaultPort: number, description: string) =>
  Type.Integer({ minimum: 0, maximum: 65535, default: defaultPort, description })

const OptionalPort = (description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description }))

/**
 * Every setting Quartet reads, by its environment-variable name. CLI flags are mapped onto these
 * names before validation, so there is one schema and one error listing for both.
 */
export const EnvSchema = Type.Object({
  QUARTET_ENV: Type.Union([Type.Literal('development'), Type.Literal('production')], {
    default: 'development',
    description: 'production refuses to start without real secrets and identity-provider settings'
  }),
  QUARTET_DATA_DIR: Type.String({ minLength: 1, default: '.quartet', description: 'SQLite file, generated dev secrets, logs' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'PostgreSQL instead of the embedded SQLite' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'cross-instance events, Socket.IO adapter, rate limits' })),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'bind address of every service' }),
  PORT: OptionalPort('port of the only service started (ignored when several start)'),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' }
  ),
  ORCHESTRATOR_PORT: Port(3100, 'orchestrator port'),
  TRIPS_PORT: Port(3200, 'trips port'),
  FEED_PORT: Port(3300, 'feed API port'),
  MARKETPLACE_PORT: Port(3400, 'marketplace port'),
  FEED_CLIENT_PORT: Port(3000, 'feed web client port'),

  // trips
  TRIPS_JWKS_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'JWKS of the external identity provider' })),
  TRIPS_ISSUER: Type.Optional(Type.String({ minLength: 1 })),
  TRIPS_AUDIENCE: Type.Optional(Type.String({ minLength: 1 })),
  TRIPS_EMAIL_CLAIM: Type.String({ minLength: 1, default: 'email', description: 'token claim holding the caller e-mail' }),
  TRIPS_COMPAT: Type.Union([Type.Literal('seed'), Type.Literal('original')], { default: 'seed' }),
  TRIPS_AUTHZ: Type.Union([Type.Literal('owner'), Type.Literal('open')], { default: 'owner' }),
  TRIPS_CORS_ORIGINS: Type.String({ default: '*', description: 'comma-separated origins, or *' }),

  // feed
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32, description: 'HS256 signing secret of the feed (≥ 32 chars)' })),
  MONGODB_URI: Type.Optional(Type.String()),
  FEED_CORS_ORIGINS: Type.Optional(Type.String({ description: 'comma-separated origins, or *' })),
  FEED_IMAGE_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 100 * 1024 * 1024, default: 5 * 1024 * 1024 }),

  // marketplace
  MARKETPLACE_PAGE_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 100 })
})

export type Env = Static<typeof EnvSchema>
