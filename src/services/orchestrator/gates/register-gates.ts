import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isLoopbackAddress } from '../runtime/loopback.js'
import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, resolveCorsOrigin } from './cors.js'
import { isApiPath } from './paths.js'
import { createSlidingWindowLimiter } from './rate-limiter.js'
import { registerAccessGate, type AccessGateOptions } from './route-access.js'

export interface GatesOptions extends AccessGateOptions {
  rateLimit: { max: number; windowMs: number; exemptLoopback?: boolean; maxClients?: number }
  /** Configured per-endpoint rules (enterprise rate rules), applied after the global limit. */
  rateRules?: { hit(path: string, client: string): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> }
}

export const TOO_MANY_REQUESTS = 'Too Many Requests'
export const CORS_ORIGIN_NOT_ALLOWED = 'CORS origin not allowed'

function refuse(reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error })
}

/** The peer as the socket reports it; forwarded headers are never trusted for the loopback exemption. */
function tooMany(reply: FastifyReply, retryAfterMs: number): void {
  void reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)))
  void refuse(reply, 429, TOO_MANY_REQUESTS)
}

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

  // Callback-style hooks: the common path (a loopback or allowed caller) allocates no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isApiPath(request.url)) return done()
    const address = remoteAddressOf(request)
    if (exemptLoopback && isLoopbackAddress(address)) return done()
    const client = address ?? 'unknown'
    const global = limiter.hit(client)
    if (!global.allowed) return tooMany(reply, global.retryAfterMs)
    if (!options.rateRules) return done()
    const q = request.url.indexOf('?')
    options.rateRules.hit(q === -1 ? request.url : request.url.slice(0, q), client).then(
      (decision) => (decision.allowed ? done() : tooMany(reply, decision.retryAfterMs)),
      (error: Error) => done(error)
    )
  })

  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin
    const allowed = resolveCorsOrigin(origin)
    void reply.header('vary', 'Origin')
    if (allowed !== null) void reply.header('access-control-allow-origin', allowed)
    if (request.method !== 'OPTIONS') return done()
    if (origin !== undefined && allowed === null) return void refuse(reply, 403, CORS_ORIGIN_NOT_ALLOWED)
    void reply
      .code(204)
      .header('access-control-allow-methods', CORS_ALLOW_METHODS)
      .header('access-control-allow-headers', CORS_ALLOW_HEADERS)
      .header('access-control-max-age', '600')
      .send()
  })

  registerAccessGate(app, options)
}
