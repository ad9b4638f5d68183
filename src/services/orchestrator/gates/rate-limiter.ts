export interface SlidingWindowOptions {
  /** Requests allowed per window and client; 0 turns the limiter off. */
  max: number
  windowMs: number
  /** Clients remembered at once; past it, idle clients and then the least recently seen are dropped. */
  maxClients?: number
  now?: () => number
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number }

/**
 * An exact sliding window: each client keeps the times of its requests within the last window
 * (at most `max` of them), so a burst at a window edge cannot double the allowance as a fixed
 * window would.
 */
export function createSlidingWindowLimiter(options: SlidingWindowOptions) {
  const maxClients = options.maxClients ?? 10_000
  const now = options.now ?? Date.now
  const clients = new Map<string, number[]>()

  function dropExpired(hits: number[], since: number): void {
    let expired = 0
    while (expired < hits.length && (hits[expired] as number) <= since) expired++
    if (expired > 0) hits.splice(0, expired)
  }

  function makeRoom(at: number): void {
    for (const [key, hits] of clients) {
      const last = hits[hits.length - 1]
      if (last === undefined || last <= at - options.windowMs) clients.delete(key)
    }
    // Map iteration is in insertion order and hit() re-inserts, so the first keys are the least recently seen.
    for (const key of clients.keys()) {
      if (clients.size < maxClients) break
      clients.delete(key)
    }
  }

  return {
    hit(client: string): RateDecision {
      if (options.max <= 0) return { allowed: true }
      const at = now()
      let hits = clients.get(client)
      if (hits) {
        clients.delete(client)
        dropExpired(hits, at - options.windowMs)
      } else {
        if (clients.size >= maxClients) makeRoom(at)
        hits = []
      }
      clients.set(client, hits)
      if (hits.length >= options.max) {
        const oldest = hits[0] as number
        return { allowed: false, retryAfterMs: Math.max(1, oldest + options.windowMs - at) }
      }
      hits.push(at)
      return { allowed: true }
    },
    get size(): number {
      return clients.size
    }
  }
}
export type SlidingWindowLimiter = ReturnType<typeof createSlidingWindowLimiter>
