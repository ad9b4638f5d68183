import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isLoopbackAddress } from '../runtime/loopback.js'
import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, resolveCorsOrigin } from './cors.js'
import { isApiPath } from './paths.js'
import { createSlidingWindowLimiter } from './rate-limiter.js'
import { registerAccessGate, type AccessGateOptions } from './route-access.js'

export interface GatesOptions extends AccessGateOptions {
  rateLimit: { max: number; windowMs: number; exemptLoopback?: boolean; maxClients?: number }
}

export const TOO_MANY_REQUESTS = 'Too Many Requests'
export const CORS_ORIGIN_NOT_ALLOWED = 'CORS origin not allowed'

function refuse(reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error })
}

/** The peer as the socket reports it; forwarded headers are never trusted for the loopback exemption. */
function remoteAddressOf(request: FastifyRequest): string | undefined {
  return request.raw.socket?.remoteAddress
}

/**
 * The orchestrator's request gates, as root-level onRequest hooks in the order of the
 * reference: rate limit, CORS (with preflights), then each route's declared access (bearer,
 * control-mutation switch, admin, loopback; see route-access.ts). Call on the instance itself
 * (not inside an encapsulated plugin) so 404s pass the gates too.
 */
export function registerGates(app: FastifyInstance, options: GatesOptions): void {
  const limiter = createSlidingWindowLimiter(options.rateLimit)
  const exemptLoopback = options.rateLimit.exemptLoopback ?? true

  app.addHook('onRequest', async (request, reply) => {
    if (!isApiPath(request.url)) return
    const address = remoteAddressOf(request)
    if (exemptLoopback && isLoopbackAddress(address)) return
    const decision = limiter.hit(address ?? 'unknown')
    if (decision.allowed) return
    void reply.header('retry-after', String(Math.ceil(decision.retryAfterMs / 1000)))
    return refuse(reply, 429, TOO_MANY_REQUESTS)
  })

  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin
    const allowed = resolveCorsOrigin(origin)
    void reply.header('vary', 'Origin')
    if (allowed !== null) void reply.header('access-control-allow-origin', allowed)
    if (request.method !== 'OPTIONS') return
    if (origin !== undefined && allowed === null) return refuse(reply, 403, CORS_ORIGIN_NOT_ALLOWED)
    return reply
      .code(204)
      .header('access-control-allow-methods', CORS_ALLOW_METHODS)
      .header('access-control-allow-headers', CORS_ALLOW_HEADERS)
      .header('access-control-max-age', '600')
      .send()
  })

  registerAccessGate(app, options)
}
