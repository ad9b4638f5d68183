import { Type, type Static, type TObject } from 'typebox'

/** A port setting with its default (TRIPS_PORT, FEED_PORT …). */
export const Port = (defaultPort: number, description: string) =>
  Type.Integer({ minimum: 0, maximum: 65535, default: defaultPort, description })

/** Comma-separated origins, or *. */
export function parseOrigins(raw: string): string[] | '*' {
  const trimmed = raw.trim()
  if (trimmed === '*') return '*'
  return trimmed
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
}

/**
 * The settings every start reads, by environment-variable name. CLI flags are mapped onto these
 * names before validation, so there is one schema and one error listing for both. Each service
 * adds its own fragment (services/<name>/config.ts).
 */
export const BaseEnvSchema = Type.Object({
  QUARTET_ENV: Type.Union([Type.Literal('development'), Type.Literal('production')], {
    default: 'development',
    description: 'production refuses to start without real secrets and identity-provider settings'
  }),
  QUARTET_DATA_DIR: Type.String({ minLength: 1, default: '.quartet', description: 'SQLite file, generated dev secrets, logs' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'PostgreSQL instead of the embedded SQLite' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'cross-instance events, Socket.IO adapter, rate limits' })),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'bind address of every service' }),
  PORT: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 65535, description: 'port of the only service started (ignored when several start)' })
  ),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' }
  ),
  QUARTET_LOG_FORMAT: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('pretty')], {
      description: 'serve output: JSON lines, or the human banner and pretty logs (default: pretty only when stdout is a terminal)'
    })
  ),
  QUARTET_SHUTDOWN_SECONDS: Type.Number({
    minimum: 0,
    maximum: 3600,
    default: 10,
    description: 'how long a stop waits for requests, streams and running work'
  })
})

export type BaseEnv = Static<typeof BaseEnvSchema>

export interface BaseConfig {
  env: BaseEnv['QUARTET_ENV']
  production: boolean
  dataDir: string
  databaseUrl: string | undefined
  redisUrl: string | undefined
  host: string
  logLevel: BaseEnv['LOG_LEVEL']
  /** QUARTET_LOG_FORMAT, when given; otherwise each stream's format follows whether it is a terminal. */
  logFormat: BaseEnv['QUARTET_LOG_FORMAT']
  /** PORT, when given: applies only when exactly one service is started. */
  singlePort: number | undefined
  shutdownMs: number
}

/**
 * One service's settings: its TypeBox schema (environment-variable names), the cross-key rules
 * the schema cannot say (checked only when that service starts), and the typed view it reads.
 */
export interface ConfigFragment<S extends TObject = TObject, C extends { port: number } = { port: number }> {
  service: string
  schema: S
  refine?(env: Static<S>, base: BaseConfig): string[]
  resolve(env: Static<S>, base: BaseConfig): C
}

export function defineConfigFragment<S extends TObject, C extends { port: number }>(fragment: ConfigFragment<S, C>): ConfigFragment<S, C> {
  return fragment
}

export type SettingsOf<F> = F extends ConfigFragment<TObject, infer C> ? C : never
