import { SERVICE_NAMES, type ServiceName } from '../core/config/config.js'
import type { MigrationSet } from '../core/db/migrations.js'
import type { ServiceDefinition } from '../core/service.js'
import { tripsMigrations } from '../services/trips/migrations/index.js'
import { feedMigrations } from '../services/feed/migrations/index.js'
import { marketplaceMigrations } from '../services/marketplace/migrations/index.js'

interface RegistryEntry {
  /** The service's tables: every database gets all of them, whichever services start. */
  migrations: MigrationSet
  /** Loaded only when the service starts, so `serve trips` does not pay for the others' code. */
  load(): Promise<ServiceDefinition>
}

/**
 * Every service the CLI knows, in start order. `null` marks a service of the seeds that is not
 * built yet: it is listed as "not available yet" rather than faked.
 */
export const serviceRegistry: Record<ServiceName, RegistryEntry | null> = {
  orchestrator: null,
  trips: { migrations: tripsMigrations, load: async () => (await import('../services/trips/index.js')).tripsService },
  feed: { migrations: feedMigrations, load: async () => (await import('../services/feed/index.js')).feedService },
  marketplace: { migrations: marketplaceMigrations, load: async () => (await import('../services/marketplace/index.js')).marketplaceService }
}

export function availableServiceNames(): ServiceName[] {
  return SERVICE_NAMES.filter((name) => serviceRegistry[name] !== null)
}

export async function loadService(name: ServiceName): Promise<ServiceDefinition | null> {
  const entry = serviceRegistry[name]
  return entry ? entry.load() : null
}

/** Migrations of every built service: one database serves them all, whichever are started. */
export function allMigrationSets(): MigrationSet[] {
  return SERVICE_NAMES.flatMap((name) => {
    const entry = serviceRegistry[name]
    return entry ? [entry.migrations] : []
  })
}
