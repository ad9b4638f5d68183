import path from 'node:path'
import Value from 'typebox/value'
import { EnvSchema, type Env } from './schema.js'

export const SERVICE_NAMES = ['orchestrator', 'trips', 'feed', 'marketplace'] as const
export type ServiceName = (typeof SERVICE_NAMES)[number]

export interface Config {
  env: Env['QUARTET_ENV']
  dataDir: string
  databaseUrl: string | undefined
  redisUrl: string | undefined
  host: string
  logLevel: Env['LOG_LEVEL']
  ports: Record<ServiceName | 'feedClient', number>
  /** PORT, when given: applies only when exactly one service is started. */
  singlePort: number | undefined
  trips: {
    jwksUrl: string | undefined
    issuer: string | undefined
    audience: string | undefined
    emailClaim: string
    compat: Env['TRIPS_COMPAT']
    authz: Env['TRIPS_AUTHZ']
    corsOrigins: string[] | '*'
  }
  feed: {
    jwtSecret: string | undefined
    mongodbUri: string | undefined
    corsOrigins: string[] | '*' | undefined
    imageMaxBytes: number
  }
  marketplace: {
    pageSize: number
  }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Settings given as CLI flags, by the environment name they override. */
export type ConfigOverrides = Partial<Record<keyof Env, string | number | undefined>>

function pickKnown(source: Record<string, unknown>): Record<string, unknown> {
  const known: Record<string, unknown> = {}
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key]
    // An empty variable means "not set", as most shells and .env files intend.
    if (value !== undefined && value !== '') known[key] = value
  }
  return known
}

function parseOrigins(raw: string): string[] | '*' {
  const trimmed = raw.trim()
  if (trimmed === '*') return '*'
  return trimmed.split(',').map((o) => o.trim()).filter(Boolean)
}

/** Validates environment + flags once and returns the typed configuration, or throws ConfigError listing every bad key. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: ConfigOverrides = {}): Config {
  const raw = { ...pickKnown(env), ...pickKnown(overrides) }
  const given = { ...raw }
  const candidate = Value.Convert(EnvSchema, Value.Default(EnvSchema, structuredClone(raw)))
  const problems = new Map<string, string>()
  for (const error of Value.Errors(EnvSchema, candidate)) {
    const key = error.instancePath.replace(/^\//, '') || 'configuration'
    // Unions report one line per branch; one line naming the allowed values is clearer.
    if (!problems.has(key)) problems.set(key, describe(key, allowedValues(key) ?? error.message, given[key]))
  }
  if (problems.size > 0) throw new ConfigError([...problems.values()])
  const e = candidate as Env

  const production = e.QUARTET_ENV === 'production'
  const extra: string[] = []
  if (production && !e.JWT_SECRET) extra.push('JWT_SECRET: required when QUARTET_ENV=production')
  if (e.TRIPS_JWKS_URL && (!e.TRIPS_ISSUER || !e.TRIPS_AUDIENCE)) {
    extra.push('TRIPS_ISSUER and TRIPS_AUDIENCE: required together with TRIPS_JWKS_URL')
  }
  if (production && !e.TRIPS_JWKS_URL) extra.push('TRIPS_JWKS_URL: required when QUARTET_ENV=production')
  if (extra.length > 0) throw new ConfigError(extra)

  return {
    env: e.QUARTET_ENV,
    dataDir: path.resolve(e.QUARTET_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    ports: {
      orchestrator: e.ORCHESTRATOR_PORT,
      trips: e.TRIPS_PORT,
      feed: e.FEED_PORT,
      marketplace: e.MARKETPLACE_PORT,
      feedClient: e.FEED_CLIENT_PORT
    },
    singlePort: e.PORT,
    trips: {
      jwksUrl: e.TRIPS_JWKS_URL,
      issuer: e.TRIPS_ISSUER,
      audience: e.TRIPS_AUDIENCE,
      emailClaim: e.TRIPS_EMAIL_CLAIM,
      compat: e.TRIPS_COMPAT,
      authz: e.TRIPS_AUTHZ,
      corsOrigins: parseOrigins(e.TRIPS_CORS_ORIGINS)
    },
    feed: {
      jwtSecret: e.JWT_SECRET,
      mongodbUri: e.MONGODB_URI,
      corsOrigins: e.FEED_CORS_ORIGINS === undefined ? undefined : parseOrigins(e.FEED_CORS_ORIGINS),
      imageMaxBytes: e.FEED_IMAGE_MAX_BYTES
    },
    marketplace: {
      pageSize: e.MARKETPLACE_PAGE_SIZE
    }
  }
}

function allowedValues(key: string): string | undefined {
  const schema = (EnvSchema.properties as Record<string, { anyOf?: { const?: unknown }[] }>)[key]
  const options = schema?.anyOf?.map((branch) => branch.const).filter((v) => v !== undefined)
  return options && options.length > 0 ? `must be one of ${options.join(', ')}` : undefined
}

function describe(key: string, message: string, given: unknown): string {
  // Never echo values that may hold credentials.
  const secret = /SECRET|URL|URI/.test(key)
  const shown = given === undefined || secret ? '' : ` (got ${JSON.stringify(given)})`
  return `${key}: ${message}${shown}`
}
