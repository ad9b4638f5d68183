import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'

/** Event name → payload. Each service declares its own map. */
export type EventMap = Record<string, unknown>

export type Unsubscribe = () => void

/**
 * A typed publish/subscribe bus. In-process by default; with Redis every instance of the
 * service sees every event (payloads must then be JSON).
 */
export interface EventBus<E extends EventMap = EventMap> {
  publish<K extends keyof E & string>(name: K, payload: E[K]): Promise<void>
  subscribe<K extends keyof E & string>(name: K, listener: (payload: E[K]) => void): Unsubscribe
  close(): Promise<void>
}

export function createLocalEventBus<E extends EventMap = EventMap>(): EventBus<E> {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  return {
    publish(name, payload) {
      emitter.emit(name, payload)
      return Promise.resolve()
    },
    subscribe(name, listener) {
      emitter.on(name, listener)
      return () => {
        emitter.off(name, listener)
      }
    },
    close() {
      emitter.removeAllListeners()
      return Promise.resolve()
    }
  }
}

/**
 * Redis pub/sub: `publisher` sends, `subscriber` (a connection of its own: Redis puts it in
 * subscriber mode) receives on `<prefix>:<name>` channels. Local listeners run once per event,
 * whichever instance published it.
 */
export function createRedisEventBus<E extends EventMap = EventMap>(publisher: Redis, subscriber: Redis, prefix = 'quartet'): EventBus<E> {
  const local = new EventEmitter()
  local.setMaxListeners(0)
  const counts = new Map<string, number>()
  subscriber.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(`${prefix}:`)) return
    let payload: unknown
    try {
      payload = JSON.parse(message)
    } catch {
      return
    }
    local.emit(channel.slice(prefix.length + 1), payload)
  })
  return {
    async publish(name, payload) {
      await publisher.publish(`${prefix}:${name}`, JSON.stringify(payload))
    },
    subscribe(name, listener) {
      local.on(name, listener)
      const count = (counts.get(name) ?? 0) + 1
      counts.set(name, count)
      if (count === 1) void subscriber.subscribe(`${prefix}:${name}`)
      return () => {
        local.off(name, listener)
        const left = (counts.get(name) ?? 1) - 1
        counts.set(name, left)
        if (left === 0) void subscriber.unsubscribe(`${prefix}:${name}`)
      }
    },
    close() {
      local.removeAllListeners()
      return Promise.resolve()
    }
  }
}
