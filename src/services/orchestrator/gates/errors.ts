import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createErrorHandler, type ErrorFormatter } from '../../../core/http/plugins/error-shape.js'
import { routedPathOf } from './paths.js'

export const NOT_FOUND = 'Not found'
export const METHOD_NOT_ALLOWED = 'Method not allowed'
export const INVALID_JSON_BODY = 'Invalid JSON body'
export const PAYLOAD_TOO_LARGE = 'Payload too large'
export const INTERNAL_ERROR = 'Internal server error'

/**
 * The orchestrator's error shape, `{error: string}`, for core's error handler: fixed messages
 * for malformed (400) and oversized (413) bodies, the validator's message for schema failures,
 * and a masked message for 5xx (the cause goes to the log, not to the client).
 */
export const orchestratorErrorFormatter: ErrorFormatter = (error) => {
  let message: string
  switch (error.code) {
    case 'MALFORMED_BODY': message = INVALID_JSON_BODY; break
    case 'PAYLOAD_TOO_LARGE': message = PAYLOAD_TOO_LARGE; break
    default: message = error.statusCode >= 500 ? INTERNAL_ERROR : error.message
  }
  // An invalid configuration lists every bad key; every other error is exactly {error}.
  const details = error.code === 'ORCH_CONFIG_INVALID' && error.details?.length ? { details: error.details } : {}
  return { statusCode: error.statusCode, body: { error: message, ...details } }
}

/** Installs the `{error}` shape on an instance (for instances not built by core's server). */
export function registerErrorShape(app: FastifyInstance): void {
  app.setErrorHandler(createErrorHandler(orchestratorErrorFormatter))
}

interface KnownRoute {
  pattern: RegExp
  methods: Set<string>
}

function patternToRegExp(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*'
      if (segment.startsWith(':')) return '[^/]+'
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('/')
  return new RegExp(`^${source}/?$`)
}

/**
 * Remembers every route registered after this call (onRoute), so an unmatched request can be
 * told apart: a known path with another method (405 with Allow) or an unknown path (404).
 */
export function trackRoutes(app: FastifyInstance) {
  const routes = new Map<string, KnownRoute>()
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    let known = routes.get(route.url)
    if (!known) {
      known = { pattern: patternToRegExp(route.url), methods: new Set() }
      routes.set(route.url, known)
    }
    for (const method of methods) known.methods.add(method.toUpperCase())
  })
  return {
    /**
     * Methods served at this path, sorted; empty when no route matches the path. The path is
     * read as the router reads it, so a spelling the router does not match (`//api/status`,
     * `/api%2Fstatus`) is a 404, not a 405 that names the very method used.
     */
    allowedMethods(url: string): string[] {
      const path = routedPathOf(url)
      if (path === null) return []
      const methods = new Set<string>()
      for (const route of routes.values()) {
        if (route.pattern.test(path)) for (const method of route.methods) methods.add(method)
      }
      return [...methods].sort()
    }
  }
}
export type RouteTable = ReturnType<typeof trackRoutes>

/** 405 `{error}` with Allow for a known path, else 404 `{error}` (for createServer's `notFound`). */
export function notFoundHandler(routes: RouteTable) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const allowed = routes.allowedMethods(request.url)
    if (allowed.length > 0) {
      return reply.code(405).header('allow', allowed.join(', ')).type('application/json; charset=utf-8').send({ error: METHOD_NOT_ALLOWED })
    }
    return reply.code(404).type('application/json; charset=utf-8').send({ error: NOT_FOUND })
  }
}

/** Installs the 405/404 answers on an instance not built by core's createServer. */
export function registerNotFound(app: FastifyInstance, routes: RouteTable): void {
  app.setNotFoundHandler(notFoundHandler(routes))
}
