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
}

/** A service as the CLI sees it. Services never import each other; the CLI composes them. */
export interface ServiceDefinition {
  name: ServiceName
  description: string
  migrations: MigrationSet
  /** Builds the app (no listen). Extra resources are released in the app's onClose hooks. */
  create(context: ServiceContext): Promise<StartedService>
}
