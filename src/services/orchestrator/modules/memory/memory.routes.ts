import type { FastifyRequest } from 'fastify'
import { createBodyPool, joinParts } from '../../../../core/http/body-pool.js'
import type { App } from '../../../../core/http/server.js'
import { orchestratorErrors } from '../../errors.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import { MEMORY_SCHEMA_VERSION, type MemoryConsumer } from './contract.js'
import type { MemoryReadService } from './memory-read.service.js'
import * as schemas from './memory.schemas.js'
import { memoryScopeOf } from './scope.js'
import type { MemoryQueryParams, QueryValue } from './query.js'
import { projectionText } from './render.js'

export interface MemoryRouteDeps {
  reads: MemoryReadService
  projectId: number
}

const tags = ['memory']
const CONSUMER: MemoryConsumer = 'api'

/** Memory reads: the versioned search and detail views, the legacy search array, the compatibility projection. */
export function memoryRoutes({ reads, projectId }: MemoryRouteDeps) {
  // The scope comes from the verified caller, never from the URL.
  const scopeOf = (request: FastifyRequest) => memoryScopeOf(callerOf(request), projectId)
  // The read service's JSON of a view, not the route's schema serializer: a view is built field by field to
  // its schema (a test checks every state against it), and the serializer's anyOf validation and string escaping
  // cost ~230 µs of a 56 KB page.
  const bodies = createBodyPool()
  return async function register(app: App) {
    app.get<{ Querystring: MemoryQueryParams }>(
      '/api/memory/search',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary:
            'With v=1: a bounded view (AVAILABLE, ABSENT or a typed HOLD, always 200). ' +
            'Without v: the legacy array of {entry, relevance}; a held read is 409, a failed one 503',
          querystring: schemas.SearchQuery,
          response: { 200: { anyOf: [schemas.SearchBody, schemas.LegacySearchBody] }, 409: schemas.LegacyHeldBody, 503: schemas.ErrorBody }
        }
      },
      async (request, reply) => {
        const scope = scopeOf(request)
        if (request.query.v !== undefined) {
          const view = await reads.search(scope, CONSUMER, request.query)
          const body = reads.bodyOf(view)
          reply.type('application/json; charset=utf-8')
          if (Buffer.isBuffer(body)) return reply.send(body)
          return reply.send(bodies.fill(body, reply.raw) ?? joinParts(body))
        }
        const outcome = await reads.legacySearch(scope, request.query.q)
        if (outcome.kind === 'ok') return outcome.items
        if (outcome.kind === 'held')
          return reply.code(orchestratorErrors.ORCH_MEMORY_HOLD.status).send({ error: outcome.view.reasonCode, view: outcome.view })
        return reply.code(orchestratorErrors.ORCH_MEMORY_UNAVAILABLE.status).send({ error: 'QUERY_FAILED' })
      }
    )

    app.get<{ Querystring: { v?: QueryValue; ref?: QueryValue } }>(
      '/api/memory/detail',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: "The complete entry of one detail reference, revalidated against the caller's scope (AVAILABLE or a typed HOLD)",
          querystring: schemas.DetailQuery,
          response: { 200: schemas.DetailBody }
        }
      },
      async (request) => {
        const scope = scopeOf(request)
        return { schemaVersion: MEMORY_SCHEMA_VERSION, detail: await reads.detail(scope, CONSUMER, request.query.v, request.query.ref) }
      }
    )

    app.get(
      '/api/memory',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: 'Compatibility projection: the bounded view of the caller\'s "memory" entries, with a rendered text',
          response: { 200: schemas.ProjectionBody }
        }
      },
      async (request) => {
        const view = await reads.search(scopeOf(request), CONSUMER, { v: '1', type: 'memory' })
        return { content: projectionText(view), schemaVersion: MEMORY_SCHEMA_VERSION, view }
      }
    )
  }
}
