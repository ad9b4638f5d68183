import type { FastifyReply } from 'fastify'
import { createVersionedCache } from '../../../core/versioned-cache.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * 200 answers kept as the bytes the route's own response schema serialises, each at the version
 * of the data it was rendered from (core/versioned-cache.ts: served only to a request that has
 * just read the same version, and at most `maxAgeMs` after rendering).
 */
export function createRenderedPages(options: { maxEntries: number; maxAgeMs: number; now?: () => number }) {
  const cache = createVersionedCache<Buffer, string>(options)
  return {
    /** Sends `key` at `version` (read before anything `render` reads): the kept bytes, or `render()` serialised. */
    async send(reply: FastifyReply, key: string, version: string, render: () => Promise<unknown>): Promise<FastifyReply> {
      const body = await cache.get(key, version, async () => Buffer.from(reply.serialize(await render()) as string))
      return reply.type(JSON_TYPE).send(body)
    },

    /** Pages held (tests, diagnostics). */
    get size(): number {
      return cache.size
    }
  }
}
