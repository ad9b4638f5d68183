import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { sql, type Transaction } from 'kysely'
import { prepareQuery } from '../../core/db/prepared.js'
import type { MarketplaceDb, MarketplaceTables } from './db.js'

const gzip = promisify(zlib.gzip)

/**
 * Response cache of the big list reads (GET /v2/orders/new, GET /v2/products/data).
 *
 * A rendered response (the serialised bytes) is stored per key — customer, channel, route and
 * query — together with the customer's version counter it was built under. Every write that can
 * change what such a read shows bumps that counter in the database, inside the write's own
 * transaction (see `bumpVersion`). A request reads the counter first (one prepared, indexed
 * query) and is served from the cache only when the stored version equals it; otherwise it
 * renders from the tables and stores the result under the version it read *before* reading
 * them. So:
 *
 * - after a write commits, every later request reads the new version and misses: no stale data,
 *   whichever process made the write (the counter lives in the shared database, not in memory);
 * - data read after the version may only be newer than it (a write that committed meanwhile),
 *   and such an entry can only be hit by requests that read the old version, i.e. that ran
 *   concurrently with that write.
 *
 * Entries are kept least-recently-used first out, bounded by total bytes.
 */
export type VersionColumn = 'orders_version' | 'products_version'

type Trx = Transaction<MarketplaceTables>

/** Bumps the customer's version counter; call inside the transaction of the write. */
export async function bumpVersion(trx: Trx, customerId: number, column: VersionColumn): Promise<void> {
  await trx.updateTable('mp_customers').set({ [column]: sql`${sql.ref(column)} + 1` }).where('id', '=', customerId).execute()
}

/** One cached rendering: the JSON bytes, and their gzip encoding once a client asked for it. */
export interface CachedRendering {
  readonly version: number
  readonly body: Buffer
  gzip?: Promise<Buffer>
}

export interface ReadCache {
  get(key: string, version: number): CachedRendering | undefined
  /** Stores the rendering (unless too big or older than the stored one) and returns it. */
  set(key: string, version: number, body: Buffer): CachedRendering
  /** The gzip encoding of a rendering, compressed once (off the event loop) and kept with it. */
  gzipOf(rendering: CachedRendering): Promise<Buffer>
  /** Entries and bytes held (tests, diagnostics). */
  stats(): { entries: number; bytes: number }
}

export function createReadCache(maxBytes = 64 * 1024 * 1024): ReadCache {
  type Entry = CachedRendering & { key: string; gzipBytes: number }
  const entries = new Map<string, Entry>()
  let bytes = 0
  const remove = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    bytes -= entry.body.length + entry.gzipBytes
  }
  const evict = () => {
    while (bytes > maxBytes) {
      const oldest = entries.keys().next().value
      if (oldest === undefined) break
      remove(oldest)
    }
  }
  return {
    get(key, version) {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (entry.version !== version) {
        // An older version can never be current again (counters only grow).
        if (entry.version < version) remove(key)
        return undefined
      }
      // Refresh recency: Map iteration order is insertion order.
      entries.delete(key)
      entries.set(key, entry)
      return entry
    },
    set(key, version, body) {
      const rendering: Entry = { key, version, body, gzipBytes: 0 }
      const current = entries.get(key)
      // A slow request must not replace a newer rendering with an older one.
      if (current && current.version > version) return rendering
      remove(key)
      if (body.length > maxBytes / 4) return rendering
      entries.set(key, rendering)
      bytes += body.length
      evict()
      return rendering
    },
    gzipOf(rendering) {
      const entry = rendering as Entry
      entry.gzip ??= gzip(entry.body).then((compressed) => {
        if (entries.get(entry.key) === entry) {
          entry.gzipBytes = compressed.length
          bytes += compressed.length
          evict()
        }
        return compressed
      }, (error: unknown) => {
        delete entry.gzip
        throw error
      })
      return entry.gzip
    },
    stats: () => ({ entries: entries.size, bytes })
  }
}

/** The cheap per-request reads that decide whether a cached rendering is current. */
export function createVersionsRepository(db: MarketplaceDb) {
  const ordersQuery = prepareQuery(db, 1, (customerId: number) =>
    db.selectFrom('mp_customers').select('orders_version').where('id', '=', customerId))
  const productsQuery = prepareQuery(db, 2, (channelId: number, customerId: number) =>
    db.selectFrom('mp_channels as ch').innerJoin('mp_customers as c', 'c.id', 'ch.customer_id')
      .select(['c.products_version', 'c.change_seq', 'ch.data_seen_seq'])
      .where('ch.id', '=', channelId).where('c.id', '=', customerId))
  return {
    async orders(customerId: number): Promise<number> {
      const row = (await ordersQuery(customerId))[0]
      if (!row) throw new Error(`customer ${customerId} does not exist`)
      return Number(row.orders_version)
    },
    /** The customer's products version and change sequence, and what this channel has seen of it. */
    async products(customerId: number, channelId: number): Promise<{ version: number; changeSeq: number; seenSeq: number }> {
      const row = (await productsQuery(channelId, customerId))[0]
      if (!row) throw new Error(`channel ${channelId} of customer ${customerId} does not exist`)
      return { version: Number(row.products_version), changeSeq: Number(row.change_seq), seenSeq: Number(row.data_seen_seq) }
    }
  }
}
export type VersionsRepository = ReturnType<typeof createVersionsRepository>
