import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createErrorHandler, type ErrorFormatter } from '../../../core/http/plugins/error-shape.js'
import type { RouteTable } from '../../../core/http/route-table.js'

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
    case 'MALFORMED_BODY':
      message = INVALID_JSON_BODY
      break
    case 'PAYLOAD_TOO_LARGE':
      message = PAYLOAD_TOO_LARGE
      break
    default:
      // A planner's failure is the upstream's answer, not ours: the client needs its words (502).
      message = error.statusCode >= 500 && error.code !== 'ORCH_FLOW_PLANNER_FAILED' ? INTERNAL_ERROR : error.message
  }
  // An invalid configuration lists every bad key; a flow conflict names the flow's state; every other error is exactly {error}.
  const details = error.code === 'ORCH_CONFIG_INVALID' && error.details?.length ? { details: error.details } : {}
  const state = error.code === 'ORCH_FLOW_STATE_CONFLICT' && error.details?.[0] ? { state: error.details[0].message } : {}
  return { statusCode: error.statusCode, body: { error: message, ...details, ...state } }
}

/** Installs the `{error}` shape on an instance (for instances not built by core's server). */
export function registerErrorShape(app: FastifyInstance): void {
  app.setErrorHandler(createErrorHandler(orchestratorErrorFormatter))
}

/** 405 `{error}` with Allow for a known path (`allowed` lists its methods), else 404 `{error}` (createServer's `notFound`). */
export function orchestratorNotFound(_request: FastifyRequest, reply: FastifyReply, allowed: string[]) {
  if (allowed.length > 0) {
    return reply.code(405).header('allow', allowed.join(', ')).type('application/json; charset=utf-8').send({ error: METHOD_NOT_ALLOWED })
  }
  return reply.code(404).type('application/json; charset=utf-8').send({ error: NOT_FOUND })
}

/** Installs the 405/404 answers on an instance not built by core's createServer. */
export function registerNotFound(app: FastifyInstance, routes: RouteTable): void {
  app.setNotFoundHandler((request, reply) => orchestratorNotFound(request, reply, routes.allowedMethods(request.url)))
}
