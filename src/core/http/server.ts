import { randomUUID } from 'node:crypto'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { commonError } from '../errors/common.js'
import { clientErrorHandler, createErrorHandler, defaultErrorFormatter, type ErrorFormatter } from './plugins/error-shape.js'
import { capConnectionsPerClient } from './plugins/connection-limit.js'
import type { App } from './app.js'
import { allowEmptyJsonBodies } from './json-body.js'
import { redactUrl } from './redact-url.js'
import { rawPathOf, trackRoutes } from './route-table.js'
import { splitCoercionValidators } from './validation.js'
import { coalesceResponseWrites } from './write-coalescing.js'

export type { App }

/** Fastify options a service may set itself (the rest are the platform's; timeouts are in `connections`). */
export type ServerTuning = Pick<
  FastifyServerOptions,
  'rewriteUrl' | 'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout' | 'maxRequestsPerSocket'
>

/**
 * How long a connection may take and how many one client may hold (milliseconds; 0 disables
 * a limit). Only receiving a request is timed: a response may stream for as long as it writes
 * (SSE, long polling), and upgraded WebSockets are the upgrade handler's.
 */
export interface ConnectionLimits {
  /** To receive a whole request, headers and body (default 30 s): a stalled upload gets 408. */
  requestTimeout?: number
  /** To receive the headers, also of a connection that sends nothing at all (default min(20 s, requestTimeout)). */
  headersTimeout?: number
  /**
   * An idle kept-alive connection stays open this long between requests (default 5 s; behind a load balancer,
   * longer than its idle timeout).
   */
  keepAliveTimeout?: number
  /** No byte either way for this long destroys the socket (default 120 s): clients that stop reading. */
  connectionTimeout?: number
  /** How often Node checks the request and header deadlines (default 1 s). */
  timeoutCheckInterval?: number
  /** Open connections per client address (default 256); more are answered 429 and closed. */
  maxConnectionsPerClient?: number
}

export const DEFAULT_CONNECTION_LIMITS: Required<ConnectionLimits> = {
  requestTimeout: 30_000,
  headersTimeout: 20_000,
  keepAliveTimeout: 5_000,
  connectionTimeout: 120_000,
  timeoutCheckInterval: 1_000,
  maxConnectionsPerClient: 256
}

export interface CreateServerOptions {
  logger: FastifyBaseLogger
  /** Turns the common error into the service's wire shape; used for every error, HTTP-layer ones included. */
  errorFormatter?: ErrorFormatter
  /** Code of validation failures unless a route's config names its own (`validationCode`). */
  validationCode?: string
  /** Request body limit in bytes (default 1 MiB). */
  bodyLimit?: number
  /**
   * Answer for requests no route matches; `allowedMethods` lists the methods served at the path
   * (empty for an unknown path). Default: 405 METHOD_NOT_ALLOWED with Allow, else 404
   * ROUTE_NOT_FOUND, in the service's shape.
   */
  notFound?: (request: FastifyRequest, reply: FastifyReply, allowedMethods: string[]) => unknown
  connections?: ConnectionLimits
  fastify?: ServerTuning
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

export const ONE_MIB = 1024 * 1024
const MAX_PARAM_LENGTH = 512

/**
 * The Fastify instance every service starts from: request ids, body limit, strict validation of
 * JSON bodies (coercion only for text: query strings, path parameters, form bodies), empty JSON
 * bodies taken as no body, the responses of one event-loop turn written together
 * (./write-coalescing.ts), and one error shape for everything that can fail — route errors,
 * router errors, unknown routes and errors of the HTTP layer itself (431, 408, 400). Everything
 * else is an opt-in plugin of ./plugins that the service composes (security headers, CORS,
 * health, OpenAPI, request log, input sanity).
 */
export function createServer(options: CreateServerOptions): App {
  const format = options.errorFormatter ?? defaultErrorFormatter
  const handleError = createErrorHandler(format, options.validationCode)
  const limits = connectionLimits(options)
  const app = Fastify({
    // Router-level failures (malformed URL encoding, over-long parameters) answer in the
    // service's error shape too, not Fastify's default one.
    frameworkErrors: (error, request, reply) => {
      // Fastify's bad-URL message quotes the whole URL: its query string may carry a credential.
      if (error.code === 'FST_ERR_BAD_URL') error.message = `'${redactUrl(request.url)}' is not a valid url component`
      // Its over-long-parameter message quotes the parameter, which may be a credential sent as a path segment.
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') error.message = `A path segment is longer than ${MAX_PARAM_LENGTH} characters.`
      void handleError(error, request, reply)
    },
    clientErrorHandler: clientErrorHandler(format, options.logger),
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit ?? ONE_MIB,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreTrailingSlash: true },
    // One structured line per request is logged by the request-log plugin instead.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    },
    // Query strings, path parameters and form bodies are coerced; JSON bodies are validated strictly.
    schemaController: { compilersFactory: { buildValidator: splitCoercionValidators } },
    ...options.fastify,
    // Fastify's own defaults time nothing out (requestTimeout 0): a stalled body held its socket forever.
    http: {
      requestTimeout: limits.requestTimeout,
      headersTimeout: limits.headersTimeout,
      connectionsCheckingInterval: limits.timeoutCheckInterval
    },
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    connectionTimeout: limits.connectionTimeout
  }).withTypeProvider<TypeBoxTypeProvider>()
  capConnectionsPerClient(app.server, { maxPerClient: limits.maxConnectionsPerClient, format })
  allowEmptyJsonBodies(app)
  coalesceResponseWrites(app)

  app.setErrorHandler(handleError)
  const routes = trackRoutes(app)
  const notFound =
    options.notFound ??
    ((request: FastifyRequest, _reply: FastifyReply, allowed: string[]) => {
      const path = redactUrl(rawPathOf(request.url))
      // A CORS preflight that no CORS policy granted: the origin is refused, whatever the path.
      const origin = request.headers.origin
      if (request.method === 'OPTIONS' && origin !== undefined && request.headers['access-control-request-method'] !== undefined) {
        throw commonError('FORBIDDEN', `Cross-origin requests from ${JSON.stringify(origin)} are not allowed.`)
      }
      if (allowed.length > 0) {
        throw commonError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, {
          headers: { allow: allowed.join(', ') }
        })
      }
      throw commonError('ROUTE_NOT_FOUND', `No route for ${request.method} ${path}`)
    })
  app.setNotFoundHandler((request, reply) => notFound(request, reply, routes.allowedMethods(request.url)))
  return app
}

function connectionLimits(options: CreateServerOptions): Required<ConnectionLimits> {
  const { requestTimeout, keepAliveTimeout, connectionTimeout } = options.fastify ?? {}
  const chosen: ConnectionLimits = {
    ...(requestTimeout !== undefined ? { requestTimeout } : {}),
    ...(keepAliveTimeout !== undefined ? { keepAliveTimeout } : {}),
    ...(connectionTimeout !== undefined ? { connectionTimeout } : {}),
    ...options.connections
  }
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...chosen }
  // Node refuses headersTimeout > requestTimeout; headers come first, so they get at most as long.
  if (chosen.headersTimeout === undefined && limits.requestTimeout > 0) {
    limits.headersTimeout = Math.min(DEFAULT_CONNECTION_LIMITS.headersTimeout, limits.requestTimeout)
  }
  return limits
}
