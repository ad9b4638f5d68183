/**
 * The daily outbound quota: bytes sent to terminal clients per tenant per UTC day, counted in
 * memory on the hot path and added to the database at most once a second (and at shutdown), so a
 * restart keeps the day's count.
 */
import type { TerminalRepository } from '../../state/terminal.repository.js'

/** `warnDue` on a kill: these bytes crossed half the limit too, so the day's warning was never sent (send it first). */
export type QuotaState =
  { state: 'ok' } | { state: 'warn'; bytesUsed: number; bytesRemaining: number } | { state: 'kill'; bytesUsed: number; warnDue: boolean }

interface Counter {
  day: string
  bytes: number
  unflushed: number
  warned: boolean
}

export function createOutboundQuota(deps: {
  projectId: number
  repository: TerminalRepository
  clock: () => Date
  logger: { warn(obj: unknown, msg: string): void }
}) {
  const counters = new Map<string, Counter>()
  let timer: NodeJS.Timeout | undefined
  const today = () => deps.clock().toISOString().slice(0, 10)

  async function flush(): Promise<void> {
    timer = undefined
    for (const [tenant, counter] of counters) {
      if (counter.unflushed === 0) continue
      const bytes = counter.unflushed
      counter.unflushed = 0
      await deps.repository.addOutboundBytes(deps.projectId, tenant, counter.day, bytes).catch((error: unknown) => {
        counter.unflushed += bytes
        deps.logger.warn({ err: error }, 'terminal: recording outbound bytes failed')
      })
    }
  }

  return {
    /** Reads the day's count from the database once per tenant and day (before the first attach). */
    async load(tenant: string): Promise<void> {
      const day = today()
      if (counters.get(tenant)?.day === day) return
      const stored = await deps.repository.outboundBytes(deps.projectId, tenant, day)
      if (counters.get(tenant)?.day === day) return
      counters.set(tenant, { day, bytes: stored, unflushed: 0, warned: false })
    },

    used(tenant: string): number {
      const counter = counters.get(tenant)
      return counter && counter.day === today() ? counter.bytes : 0
    },

    exhausted(tenant: string, limit: number): boolean {
      return this.used(tenant) >= limit
    },

    /** Counts bytes about to be sent; answers whether to warn (once a day, at half) or to close (at the limit). */
    add(tenant: string, bytes: number, limit: number): QuotaState {
      const day = today()
      let counter = counters.get(tenant)
      if (!counter || counter.day !== day) {
        if (counter && counter.unflushed > 0) {
          const { day: previous, unflushed } = counter
          void deps.repository.addOutboundBytes(deps.projectId, tenant, previous, unflushed).catch((error: unknown) => {
            deps.logger.warn({ err: error }, 'terminal: recording outbound bytes failed')
          })
        }
        counter = { day, bytes: 0, unflushed: 0, warned: false }
        counters.set(tenant, counter)
      }
      counter.bytes += bytes
      counter.unflushed += bytes
      timer ??= setTimeout(() => void flush(), 1000).unref()
      // One chunk of output can cross both half the limit and the limit (a PTY read of 16 KB and more).
      const warnDue = !counter.warned && counter.bytes >= limit / 2
      if (warnDue) counter.warned = true
      if (counter.bytes >= limit) return { state: 'kill', bytesUsed: counter.bytes, warnDue }
      if (warnDue) return { state: 'warn', bytesUsed: counter.bytes, bytesRemaining: limit - counter.bytes }
      return { state: 'ok' }
    },

    async flush(): Promise<void> {
      if (timer) clearTimeout(timer)
      await flush()
    }
  }
}

export type OutboundQuota = ReturnType<typeof createOutboundQuota>
