import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { acceptsGzip } from '../../../core/http/accept-encoding.js'
import { createVersionedCache, type VersionedCache } from '../../../core/versioned-cache.js'

const gzip = promisify(zlib.gzip)

/** One cached rendering: the JSON bytes, and their gzip encoding once a client asked for it. */
export interface CachedRendering {
  readonly body: Buffer
  gzip?: Promise<Buffer>
  gzipBytes: number
}

export type ReadCache = VersionedCache<CachedRendering, number>

/**
 * Response cache of the big list reads (GET /v2/orders/new, GET /v2/products/data): the serialised
 * bytes per key (customer, channel, route and query) under the customer's version counter, which
 * every write that can change such a read bumps in its own transaction (the orders and products
 * repositories). A request reads the counter first (with its key, or one prepared, indexed query);
 * why a hit is then never stale is in core/versioned-cache.ts. Bounded by bytes, gzip encodings
 * included.
 */
export function createReadCache(maxBytes = 64 * 1024 * 1024): ReadCache {
  return createVersionedCache<CachedRendering, number>({
    maxBytes,
    sizeOf: (rendering) => rendering.body.length + rendering.gzipBytes,
    // The counters only grow.
    compareVersions: (a, b) => a - b
  })
}

/** The gzip encoding of a rendering, compressed once (off the event loop) and kept with it. */
export function gzipOf(cache: ReadCache, key: string, rendering: CachedRendering): Promise<Buffer> {
  rendering.gzip ??= gzip(rendering.body).then(
    (compressed) => {
      rendering.gzipBytes = compressed.length
      cache.resized(key, rendering)
      return compressed
    },
    (error: unknown) => {
      delete rendering.gzip
      throw error
    }
  )
  return rendering.gzip
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
  const rendering = await cache.get(key, version, async () => {
    const serialised = reply.serialize(await render())
    const body = typeof serialised === 'string' ? Buffer.from(serialised) : Buffer.from(serialised as ArrayBuffer)
    return { body, gzipBytes: 0 }
  })
  void reply.type(JSON_TYPE).header('vary', 'accept-encoding')
  if (rendering.body.length >= GZIP_MIN_BYTES && acceptsGzip(request.headers['accept-encoding'])) {
    return reply.header('content-encoding', 'gzip').send(await gzipOf(cache, key, rendering))
  }
  return reply.send(rendering.body)
}
