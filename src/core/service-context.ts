import type { Config } from './config/config.js'
import { settingsOf } from './config/config.js'
import type { Database } from './db/database.js'
import { createLocalEventBus, createRedisEventBus } from './events/bus.js'
import type { Logger } from './logger.js'
import { nodePlatform } from './platform.js'
import { createRedisConnections } from './redis.js'
import type { ServiceContext, ServiceDefinition } from './service.js'

export interface ContextBase {
  config: Config
  database: Database
  logger: Logger
}

/**
 * The context a service is built with — by `quartet serve` and by tests alike, so the shipped
 * wiring is the tested one. Overrides replace single parts (a fixed clock, an event bus …).
 * Resources the context opens (Redis connections, the bus) are released by `release()`.
 */
export async function createServiceContext<S extends { port: number }>(
  definition: ServiceDefinition<S>,
  base: ContextBase,
  overrides: Partial<Omit<ServiceContext<S>, 'config' | 'database' | 'logger'>> = {}
): Promise<{ context: ServiceContext<S>; release(): Promise<void> }> {
  const redis = overrides.redis ?? (base.config.redisUrl ? createRedisConnections(base.config.redisUrl, base.logger) : undefined)
  let events = overrides.events
  if (!events) {
    events = redis
      ? createRedisEventBus(
          await redis.connect(`${definition.name}-events-pub`),
          await redis.connect(`${definition.name}-events-sub`),
          `quartet:${definition.name}`
        )
      : createLocalEventBus()
  }
  const context: ServiceContext<S> = {
    config: base.config,
    settings: overrides.settings ?? settingsOf(base.config, definition.config),
    database: base.database,
    logger: base.logger,
    platform: overrides.platform ?? nodePlatform(),
    events,
    redis
  }
  return {
    context,
    async release() {
      await context.events.close()
      // Connections passed in belong to the caller.
      if (!overrides.redis) await redis?.close()
    }
  }
}
