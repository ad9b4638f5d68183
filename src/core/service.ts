import type { Config, ServiceName } from './config/config.js'
import type { Database } from './db/database.js'
import type { MigrationSet } from './db/migrations.js'
import type { App } from './http/server.js'
import type { Logger } from './logger.js'

/** What the CLI hands every service: validated config, the one DB handle, a logger, a clock. */
export interface ServiceContext {
  config: Config
  database: Database
  logger: Logger
  clock: () => Date
}

export interface StartedService {
  app: App
  /** Lines printed at start-up after the URL: how to get a credential, what is configured. */
  notes: string[]
  /**
   * Further listeners started with the service (e.g. the feed's web client). `apiUrl` is resolved
   * once the service itself listens, so a companion can be told where its API is.
   */
  companions?: { name: string; port: number; create(apiUrl: string): Promise<App> }[]
}

/** A service refusing to start for a reason the operator must fix (printed without a stack). */
export class ServiceStartError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ServiceStartError'
  }
}

/** A service as the CLI sees it. Services never import each other; the CLI composes them. */
export interface ServiceDefinition {
  name: ServiceName
  description: string
  migrations: MigrationSet
  /** Builds the app (no listen). Extra resources are released in the app's onClose hooks. */
  create(context: ServiceContext): Promise<StartedService>
}
