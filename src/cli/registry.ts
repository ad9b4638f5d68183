import { SERVICE_NAMES, type ServiceName } from '../core/config/config.js'
import type { ConfigFragment } from '../core/config/schema.js'
import type { MigrationSet } from '../core/db/migrations.js'
import type { ServiceCommands, ServiceDefinition } from '../core/service.js'
import { orchestratorMigrations } from '../services/orchestrator/migrations/index.js'
import { orchestratorConfig } from '../services/orchestrator/config.js'
import { orchestratorCommands } from '../services/orchestrator/cli.js'
import { tripsMigrations } from '../services/trips/migrations/index.js'
import { tripsConfig } from '../services/trips/config.js'
import { tripsCommands } from '../services/trips/cli.js'
import { feedMigrations } from '../services/feed/migrations/index.js'
import { feedConfig } from '../services/feed/config.js'
import { feedCommands } from '../services/feed/cli.js'
import { marketplaceMigrations } from '../services/marketplace/migrations/index.js'
import { marketplaceConfig } from '../services/marketplace/config.js'
import { marketplaceCommands } from '../services/marketplace/cli.js'

interface RegistryEntry {
  /** The service's tables: every database gets all of them, whichever services start. */
  migrations: MigrationSet
  config: ConfigFragment<any, any>
  /** Its CLI commands (light modules: their actions import the heavy code when run). */
  commands?: ServiceCommands
  /** Loaded only when the service starts, so `serve trips` does not pay for the others' code. */
  load(): Promise<ServiceDefinition>
}

/**
 * Every service the CLI knows, in start order. `null` marks a service of the seeds that is not
 * built yet: it is listed as "not available yet" rather than faked.
 */
export const serviceRegistry: Record<ServiceName, RegistryEntry | null> = {
  orchestrator: {
    migrations: orchestratorMigrations,
    config: orchestratorConfig,
    commands: orchestratorCommands,
    load: async () => (await import('../services/orchestrator/index.js')).orchestratorService
  },
  trips: {
    migrations: tripsMigrations,
    config: tripsConfig,
    commands: tripsCommands,
    load: async () => (await import('../services/trips/index.js')).tripsService
  },
  feed: {
    migrations: feedMigrations,
    config: feedConfig,
    commands: feedCommands,
    load: async () => (await import('../services/feed/index.js')).feedService
  },
  marketplace: {
    migrations: marketplaceMigrations,
    config: marketplaceConfig,
    commands: marketplaceCommands,
    load: async () => (await import('../services/marketplace/index.js')).marketplaceService
  }
}

export function availableServiceNames(): ServiceName[] {
  return SERVICE_NAMES.filter((name) => serviceRegistry[name] !== null)
}

export async function loadService(name: ServiceName): Promise<ServiceDefinition | null> {
  const entry = serviceRegistry[name]
  return entry ? entry.load() : null
}

/** Config fragments of the given services (default: every built one). */
export function configFragments(names: readonly ServiceName[] = availableServiceNames()): ConfigFragment<any, any>[] {
  return names.flatMap((name) => {
    const entry = serviceRegistry[name]
    return entry ? [entry.config] : []
  })
}

/** Migrations of every built service: one database serves them all, whichever are started. */
export function allMigrationSets(): MigrationSet[] {
  return SERVICE_NAMES.flatMap((name) => {
    const entry = serviceRegistry[name]
    return entry ? [entry.migrations] : []
  })
}
