import type { FastifyRequest } from 'fastify'
import type { App } from '../../../core/http/server.js'
import { isFormBody, markStringSourced } from '../../../core/http/validation.js'

/**
 * Query parameters and form fields are strings on the wire and are cast ("true", "5"). In a JSON
 * body only strings are cast, as Rails cast its params: the original React client sends
 * `creator_id` as the string id it was given, and seed-mode flags are rendered "true"/"false".
 * Any other JSON type must match (`"complete": 5`, `"location": true` or a body `true` are 422).
 */
function mergeQueryIntoBody(request: FastifyRequest, _reply: unknown, done: () => void): void {
  const query = request.query as Record<string, unknown>
  const body = request.body
  if (body === undefined || body === null) {
    request.body = markStringSourced({ ...query })
  } else if (typeof body === 'object' && !Array.isArray(body)) {
    const json = body as Record<string, unknown>
    const merged = { ...query, ...json }
    if (isFormBody(body)) markStringSourced(merged)
    else {
      const cast = Object.keys(merged).filter((name) => !Object.hasOwn(json, name) || typeof json[name] === 'string')
      if (cast.length > 0) markStringSourced(merged, cast)
    }
    request.body = merged
  }
  done()
}

/**
 * Create and update read parameters from the query string as well as the body (as the original
 * Rails API did): for every write route registered in this scope from now on, merge them, body
 * winning, before schema validation.
 */
export function readWriteParamsFromQuery(app: App): void {
  app.addHook('onRoute', (route) => {
    if (route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT') route.preValidation = mergeQueryIntoBody
  })
}
