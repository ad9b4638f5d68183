import { Redis } from 'ioredis'
import type { Logger } from './logger.js'

/** Redis connections for a service, opened on demand from REDIS_URL and closed with the process. */
export interface RedisConnections {
  url: string
  /** A new connected client (pub/sub needs connections of its own). */
  connect(name: string): Promise<Redis>
  close(): Promise<void>
}

export function createRedisConnections(url: string, logger: Logger): RedisConnections {
  const clients: Redis[] = []
  return {
    url,
    async connect(name) {
      const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3, connectionName: `quartet-${name}` })
      client.on('error', (error: Error) => logger.warn({ err: error, client: name }, 'redis connection problem'))
      clients.push(client)
      await client.connect()
      return client
    },
    async close() {
      await Promise.allSettled(clients.splice(0).map((client) => client.quit()))
    }
  }
}
