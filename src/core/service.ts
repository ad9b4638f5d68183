import type { Command } from 'commander'
import type { Config, ServiceName } from './config/config.js'
import type { ConfigFragment } from './config/schema.js'
import type { Database } from './db/database.js'
import type { MigrationSet } from './db/migrations.js'
import type { EventBus } from './events/bus.js'
import type { App } from './http/server.js'
import type { Logger } from './logger.js'
import type { Platform } from './platform.js'
import type { RedisConnections } from './redis.js'

/** What the CLI hands a service: validated config (its own settings typed), the one DB handle, a logger, the platform. */
export interface ServiceContext<S extends { port: number } = { port: number }> {
  config: Config
  /** This service's own settings, from its config fragment. */
  settings: S
  database: Database
  logger: Logger
  platform: Platform
  events: EventBus
  /** Present when REDIS_URL is set. */
  redis?: RedisConnections | undefined
}

/**
 * A line of the start-up banner after the service's URL: text as is, a hint naming a command to
 * run (a field of its own in JSON logs, so collectors and scripts need not parse the text), or a
 * warning (logged at warn level).
 */
export type StartupNote = string | { hint: string; command: string } | { warning: string }

export interface StartedService {
  app: App
  /** Lines printed at start-up after the URL: how to get a credential, what is configured. */
  notes: StartupNote[]
  /**
   * Further listeners started with the service (e.g. the feed's web client). `apiUrl` is resolved
   * once the service itself listens, so a companion can be told where its API is.
   */
  companions?: { name: string; port: number; create(apiUrl: string): Promise<App> }[]
  /**
   * Called on SIGINT/SIGTERM before the app closes: finish or checkpoint running work and end
   * open streams by `deadline` (ms since the epoch). Requests in flight are drained afterwards.
   */
  shutdown?(deadline: number): Promise<void>
}

/** A service refusing to start for a reason the operator must fix (printed without a stack). */
export class ServiceStartError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ServiceStartError'
  }
}

/** A service as the CLI sees it. Services never import each other; the CLI composes them. */
export interface ServiceDefinition<S extends { port: number } = any> {
  name: ServiceName
  description: string
  migrations: MigrationSet
  config: ConfigFragment<any, S>
  /** Builds the app (no listen). Extra resources are released in the app's onClose hooks. */
  create(context: ServiceContext<S>): Promise<StartedService>
}

/** What a service's CLI commands may use: config loading and the migrated database, as `serve` does. */
export interface CliRuntime {
  loadConfig(overrides: Record<string, string | number | undefined>, fragments: readonly ConfigFragment<any, any>[]): Config
  openDatabase(config: Config): Promise<Database>
  createLogger(level: string): Logger
}

/** A service's CLI: commands registered on the program (light module; heavy code is imported inside actions). */
export type ServiceCommands = (program: Command, runtime: CliRuntime) => void
