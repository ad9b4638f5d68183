import type { FastifyReply } from 'fastify'
import { createVersionedCache } from '../../../../core/versioned-cache.js'

const MAX_PAGES = 64
/** A safety net for writes that bypass the repository (a hand edit): they show within a second. */
const MAX_AGE_MS = 1000
const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * Pages of the flow list as the bytes the route's schema serialises, kept at the list revision
 * they were rendered at (state/run-flow-revisions.ts: raised in the transaction of every flow
 * write, by any process). A page is served only to a request that has just read the same
 * revision, so a dashboard polling the list costs one indexed read until a flow changes.
 */
export function createFlowListView() {
  const cache = createVersionedCache<Buffer, string>({ maxEntries: MAX_PAGES, maxAgeMs: MAX_AGE_MS })
  return {
    async send(reply: FastifyReply, key: string, revision: string, render: () => Promise<unknown>): Promise<FastifyReply> {
      const body = await cache.get(key, revision, async () => Buffer.from(reply.serialize(await render()) as string))
      return reply.type(JSON_TYPE).send(body)
    },

    /** Pages held (tests, diagnostics). */
    get size(): number {
      return cache.size
    }
  }
}
