import { SERVICE_NAMES, type ServiceName } from '../core/config/config.js'
import type { ServiceDefinition } from '../core/service.js'
import { tripsService } from '../services/trips/index.js'
import { marketplaceService } from '../services/marketplace/index.js'
import { feedService } from '../services/feed/index.js'

/**
 * Every service the CLI knows, in start order. `null` marks a service of the seeds that is not
 * built yet: it is listed as "not available yet" rather than faked.
 */
export const serviceRegistry: Record<ServiceName, ServiceDefinition | null> = {
  orchestrator: null,
  trips: tripsService,
  feed: feedService,
  marketplace: marketplaceService
}

export function availableServices(): ServiceDefinition[] {
  return SERVICE_NAMES.map((name) => serviceRegistry[name]).filter((s): s is ServiceDefinition => s !== null)
}

/** Migrations of every built service: one database serves them all, whichever are started. */
export function allMigrationSets() {
  return availableServices().map((s) => s.migrations)
}
