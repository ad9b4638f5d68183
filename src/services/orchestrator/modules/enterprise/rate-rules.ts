/**
 * Rate rules (`POST /api/enterprise/rate`): per rule and client address, at most `limit` requests
 * per 60 s fixed window to the rule's endpoint (an exact path, or a prefix ending in `/*`). The
 * rules are cached and reloaded after a write here or every few seconds (writes by another process).
 */
import type { RateRule } from '../../state/enterprise.repository.js'

export const RATE_WINDOW_MS = 60_000
const RELOAD_MS = 5_000
const MAX_WINDOWS = 10_000

export type RuleDecision = { allowed: true } | { allowed: false; retryAfterMs: number; ruleId: string }

export interface RateWindowView {
  id: string
  endpoint: string
  limit: number
  remaining: number
  resetAt: string
}

export function ruleMatches(endpoint: string, path: string): boolean {
  if (endpoint.endsWith('/*')) {
    const prefix = endpoint.slice(0, -1)
    return path.startsWith(prefix) || path === endpoint.slice(0, -2)
  }
  return path === endpoint
}

export function createRateRules(deps: { load: () => Promise<RateRule[]>; now?: () => number }) {
  const now = deps.now ?? Date.now
  let rules: RateRule[] = []
  let loadedAt = -Infinity
  let loading: Promise<void> | undefined
  const windows = new Map<string, { ruleId: string; client: string; count: number; resetAt: number }>()

  async function current(): Promise<RateRule[]> {
    if (now() - loadedAt < RELOAD_MS) return rules
    loading ??= deps
      .load()
      .then((loaded) => {
        rules = loaded
        loadedAt = now()
      })
      .finally(() => {
        loading = undefined
      })
    await loading
    return rules
  }

  return {
    /** Counts one request of `client` to `path` against every matching rule. */
    async hit(path: string, client: string): Promise<RuleDecision> {
      const active = await current()
      if (active.length === 0) return { allowed: true }
      const at = now()
      for (const rule of active) {
        if (!ruleMatches(rule.endpoint, path)) continue
        const key = `${rule.id}\u0000${client}`
        let window = windows.get(key)
        if (!window || window.resetAt <= at) {
          if (windows.size >= MAX_WINDOWS) for (const [k, w] of windows) if (w.resetAt <= at) windows.delete(k)
          window = { ruleId: rule.id, client, count: 0, resetAt: at + RATE_WINDOW_MS }
          windows.set(key, window)
        }
        if (window.count >= rule.limit) return { allowed: false, retryAfterMs: window.resetAt - at, ruleId: rule.id }
        window.count++
      }
      return { allowed: true }
    },
    /** After a write of the rules: the next request reloads them (and a changed rule starts afresh). */
    invalidate(): void {
      loadedAt = -Infinity
      windows.clear()
    },
    /** Each rule, then each open window of a client (`<endpoint> [<address>]`). */
    async view(): Promise<RateWindowView[]> {
      const active = await current()
      const at = now()
      const rows: RateWindowView[] = active.map((r) => ({
        id: r.id,
        endpoint: r.endpoint,
        limit: r.limit,
        remaining: r.limit,
        resetAt: ''
      }))
      for (const window of windows.values()) {
        const rule = active.find((r) => r.id === window.ruleId)
        if (!rule || window.resetAt <= at) continue
        rows.push({
          id: rule.id,
          endpoint: `${rule.endpoint} [${window.client}]`,
          limit: rule.limit,
          remaining: Math.max(0, rule.limit - window.count),
          resetAt: new Date(window.resetAt).toISOString()
        })
      }
      return rows
    }
  }
}
export type RateRules = ReturnType<typeof createRateRules>
