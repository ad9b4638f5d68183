import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { acceptsGzip } from '../../../core/http/accept-encoding.js'

const gzip = promisify(zlib.gzip)

/**
 * Response cache of the big list reads (GET /v2/orders/new, GET /v2/products/data).
 *
 * A rendered response (the serialised bytes) is stored per key — customer, channel, route and
 * query — together with the customer's version counter it was built under. Every write that can
 * change what such a read shows bumps that counter in the database, inside the write's own
 * transaction (the orders and products repositories). A request reads the counter first (with
 * its key, or one prepared, indexed query) and is served from the cache only when the stored
 * version equals it; otherwise it renders from the tables and stores the result under the
 * version it read *before* reading them. So:
 *
 * - after a write commits, every later request reads the new version and misses: no stale data,
 *   whichever process made the write (the counter lives in the shared database, not in memory);
 * - data read after the version may only be newer than it (a write that committed meanwhile),
 *   and such an entry can only be hit by requests that read the old version, i.e. that ran
 *   concurrently with that write.
 *
 * Entries are kept least-recently-used first out, bounded by total bytes.
 */

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
      entry.gzip ??= gzip(entry.body).then(
        (compressed) => {
          if (entries.get(entry.key) === entry) {
            entry.gzipBytes = compressed.length
            bytes += compressed.length
            evict()
          }
          return compressed
        },
        (error: unknown) => {
          delete entry.gzip
          throw error
        }
      )
      return entry.gzip
    },
    stats: () => ({ entries: entries.size, bytes })
  }
}

// Below this, compressing saves less than the header costs.
const GZIP_MIN_BYTES = 1024
const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * A cached read: sends the rendering cached under (key, version), or renders the payload,
 * serialises it with the route's own response serialiser (the same bytes Fastify would send) and
 * caches it. Clients that accept gzip get the compressed bytes (compressed once per rendering):
 * a page of 1,000 products is ~0.6 MB of JSON. Read `version` before the data that `render`
 * reads (see above).
 */
export async function sendCached(
  cache: ReadCache,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  version: number,
  render: () => Promise<unknown>
): Promise<FastifyReply> {
  let rendering = cache.get(key, version)
  if (rendering === undefined) {
    const serialised = reply.serialize(await render())
    rendering = cache.set(key, version, typeof serialised === 'string' ? Buffer.from(serialised) : Buffer.from(serialised as ArrayBuffer))
  }
  void reply.type(JSON_TYPE).header('vary', 'accept-encoding')
  if (rendering.body.length >= GZIP_MIN_BYTES && acceptsGzip(request.headers['accept-encoding'])) {
    return reply.header('content-encoding', 'gzip').send(await cache.gzipOf(rendering))
  }
  return reply.send(rendering.body)
}
