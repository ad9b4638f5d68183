import path from 'node:path'
import { Type, type TObject, type TSchema } from 'typebox'
import Value from 'typebox/value'
import { BaseEnvSchema, type BaseConfig, type BaseEnv, type ConfigFragment } from './schema.js'

export { parseOrigins, type BaseConfig, type ConfigFragment } from './schema.js'

export const SERVICE_NAMES = ['orchestrator', 'trips', 'feed', 'marketplace'] as const
export type ServiceName = (typeof SERVICE_NAMES)[number]

/** The validated base settings plus the typed settings of each fragment that was loaded. */
export interface Config extends BaseConfig {
  /** Resolved settings by service name; read them through settingsOf(config, fragment). */
  services: Readonly<Record<string, unknown>>
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Settings given as CLI flags, by the environment name they override. */
export type ConfigOverrides = Record<string, string | number | undefined>

function pickKnown(schema: TObject, source: Record<string, unknown>): Record<string, unknown> {
  const known: Record<string, unknown> = {}
  for (const key of Object.keys(schema.properties)) {
    const value = source[key]
    // An empty variable means "not set", as most shells and .env files intend.
    if (value !== undefined && value !== '') known[key] = value
  }
  return known
}

/**
 * Validates the environment and flags once, for the base settings and the fragments of the
 * services about to run (only those: starting the feed never asks for trips' settings), and
 * returns the typed configuration — or throws ConfigError listing every bad key at once.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: ConfigOverrides = {},
  fragments: readonly ConfigFragment[] = []
): Config {
  const properties: Record<string, TSchema> = { ...BaseEnvSchema.properties }
  for (const fragment of fragments) Object.assign(properties, fragment.schema.properties)
  const schema = Type.Object(properties)
  const raw = { ...pickKnown(schema, env), ...pickKnown(schema, overrides) }
  const candidate = Value.Convert(schema, Value.Default(schema, structuredClone(raw))) as Record<string, unknown>
  const problems = new Map<string, string>()
  for (const error of Value.Errors(schema, candidate)) {
    const key = error.instancePath.replace(/^\//, '') || 'configuration'
    // Unions report one line per branch; one line naming the allowed values is clearer.
    if (!problems.has(key)) problems.set(key, describe(key, allowedValues(schema, key) ?? error.message, raw[key]))
  }
  if (problems.size > 0) throw new ConfigError([...problems.values()])

  const e = candidate as BaseEnv
  const base: BaseConfig = {
    env: e.QUARTET_ENV,
    production: e.QUARTET_ENV === 'production',
    dataDir: path.resolve(e.QUARTET_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    logFormat: e.QUARTET_LOG_FORMAT,
    singlePort: e.PORT,
    shutdownMs: Math.round(e.QUARTET_SHUTDOWN_SECONDS * 1000)
  }
  const refinements = fragments.flatMap((fragment) => fragment.refine?.(candidate as never, base) ?? [])
  if (refinements.length > 0) throw new ConfigError(refinements)
  const services: Record<string, unknown> = {}
  for (const fragment of fragments) services[fragment.service] = fragment.resolve(candidate as never, base)
  return { ...base, services }
}

/** The typed settings of one service (its fragment must have been loaded). */
export function settingsOf<C extends { port: number }>(config: Config, fragment: ConfigFragment<TObject, C>): C {
  const settings = config.services[fragment.service]
  if (settings === undefined) throw new Error(`configuration of ${fragment.service} was not loaded`)
  return settings as C
}

function allowedValues(schema: TObject, key: string): string | undefined {
  const property = (schema.properties as Record<string, { anyOf?: { const?: unknown }[] }>)[key]
  const options = property?.anyOf?.map((branch) => branch.const).filter((v) => v !== undefined)
  return options && options.length > 0 ? `must be one of ${options.join(', ')}` : undefined
}

function describe(key: string, message: string, given: unknown): string {
  // Never echo values that may hold credentials.
  const secret = /SECRET|URL|URI|TOKEN|KEY/.test(key)
  const shown = given === undefined || secret ? '' : ` (got ${JSON.stringify(given)})`
  return `${key}: ${message}${shown}`
}
