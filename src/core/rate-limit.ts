import type { Redis } from 'ioredis'

/** A key's count in its current window and how long until that window ends. */
export interface WindowCount {
  count: number
  resetInMs: number
}

/**
 * Fixed-window counters (the window starts at a key's first hit and is not extended by later
 * ones), in memory or in Redis so instances sharing it share the counts. Written here rather than
 * taken from @fastify/rate-limit because a login limit must count only failures and be cleared by
 * a success, which that plugin's per-request counting does not do.
 */
export interface RateCounters {
  /** Adds one to the key's count and returns the count including this hit. */
  hit(key: string, windowMs: number): Promise<WindowCount>
  /** Forgets the key (its next hit starts a new window). */
  reset(key: string): Promise<void>
}

export interface MemoryCountersOptions {
  clock?: () => Date
  /** Keys kept at most; beyond, expired windows are swept and then the oldest dropped. */
  maxKeys?: number
}

/** Counters of one process. */
export function createMemoryCounters(options: MemoryCountersOptions = {}): RateCounters {
  const now = () => (options.clock ?? (() => new Date()))().getTime()
  const maxKeys = options.maxKeys ?? 100_000
  const windows = new Map<string, { count: number; resetAt: number }>()

  // Bounded so that a client cycling through made-up e-mails cannot grow memory without end.
  function makeRoom(at: number) {
    if (windows.size < maxKeys) return
    for (const [key, entry] of windows) if (entry.resetAt <= at) windows.delete(key)
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break
      windows.delete(key)
    }
  }

  return {
    async hit(key, windowMs) {
      const at = now()
      let entry = windows.get(key)
      if (!entry || entry.resetAt <= at) {
        windows.delete(key)
        makeRoom(at)
        entry = { count: 0, resetAt: at + windowMs }
        windows.set(key, entry)
      }
      entry.count += 1
      return { count: entry.count, resetInMs: entry.resetAt - at }
    },
    async reset(key) {
      windows.delete(key)
    }
  }
}

// INCR and the expiry of a new window in one step, so concurrent hits from several instances
// never leave a key without an expiry (which would lock it for good).
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`

/** Counters in Redis under `prefix`, shared by every instance using the same Redis and prefix. */
export function createRedisCounters(client: Redis, prefix: string): RateCounters {
  return {
    async hit(key, windowMs) {
      const [count, ttl] = (await client.eval(HIT_SCRIPT, 1, `${prefix}:${key}`, String(windowMs))) as [number, number]
      return { count, resetInMs: ttl }
    },
    async reset(key) {
      await client.del(`${prefix}:${key}`)
    }
  }
}

/**
 * The counting key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64,
 * since one host usually holds a whole /64 and could otherwise rotate addresses past a limit.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped) return mapped[1] as string
  if (!address.includes(':')) return address
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
