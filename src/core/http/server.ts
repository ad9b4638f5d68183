import { randomUUID } from 'node:crypto'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifySchema } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import cors from '@fastify/cors'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { Type } from 'typebox'
import { AppError } from '../errors/app-error.js'
import { createErrorHandler, defaultErrorFormatter, type ErrorFormatter } from './errors.js'
import { redactUrl } from './redact-url.js'

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>

export interface BuildServerOptions {
  /** Service name: OpenAPI title and log binding. */
  name: string
  description: string
  version?: string
  logger: FastifyBaseLogger
  errorFormatter?: ErrorFormatter
  /** Request body limit in bytes (default 1 MiB). */
  bodyLimit?: number
  /** Origins allowed by CORS: a list, '*' for any, or undefined for no CORS headers. */
  corsOrigins?: string[] | '*' | undefined
  /** Extra headers CORS lets browsers send. */
  corsAllowedHeaders?: string[]
  /** Checked by GET /health; throw to report the service unhealthy. */
  healthCheck?: () => Promise<void>
  /** OpenAPI security schemes and tags, merged into the generated document. */
  openapi?: {
    securitySchemes?: Record<string, unknown>
    security?: Record<string, string[]>[]
    tags?: { name: string; description?: string }[]
    /**
     * Error responses to document on every route (status → body schema). They are added to the
     * OpenAPI document only, not compiled into each route's serializers: errors are rare, and
     * dozens of compiled error serializers per service cost memory for nothing.
     */
    errorResponses?: Record<number, unknown>
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/
const NUL_IN_URL = /%00/i
const COMMON_HEADERS = Object.freeze({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' })
const JSON_HEADERS = Object.freeze({ 'x-frame-options': 'DENY', 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" })

function nulError(where: string): AppError {
  return new AppError('VALIDATION_FAILED', `NUL characters are not allowed in ${where}.`, { details: [{ pointer: '/', message: `${where} contains a NUL character` }] })
}

function containsNul(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1))
  for (const key in value) {
    if (key.includes('\u0000') || containsNul((value as Record<string, unknown>)[key], depth + 1)) return true
  }
  return false
}

export const ONE_MIB = 1024 * 1024

/**
 * The Fastify instance every service starts from: request ids, security headers, body limit,
 * one error handler (with the service's formatter), 404s in the same shape, /health, and the
 * OpenAPI document at /openapi.json with interactive docs at /docs.
 */
export async function buildServer(options: BuildServerOptions): Promise<App> {
  const format = options.errorFormatter ?? defaultErrorFormatter
  const handleError = createErrorHandler(format)
  const app = Fastify({
    // Router-level failures (malformed URL encoding, over-long parameters) answer in the
    // service's error shape too, not Fastify's default one.
    frameworkErrors: (error, request, reply) => {
      void handleError(error, request, reply)
    },
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit ?? ONE_MIB,
    routerOptions: { maxParamLength: 512, ignoreTrailingSlash: true },
    // One structured line per request is logged by our onResponse hook instead.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    },
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: true, useDefaults: true } }
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.setErrorHandler(handleError)
  app.setNotFoundHandler((request) => {
    throw new AppError('ROUTE_NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`)
  })

  // PostgreSQL cannot store NUL in text and SQLite would: refuse it everywhere, up front, so
  // both databases behave alike and no such value reaches SQL.
  app.addHook('onRequest', (request, _reply, done) => {
    if (NUL_IN_URL.test(request.url)) done(nulError('the URL'))
    else done()
  })
  app.addHook('preValidation', (request, _reply, done) => {
    if (containsNul(request.body, 0)) done(nulError('the body'))
    else done()
  })

  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.headers(COMMON_HEADERS)
    reply.header('x-request-id', request.id)
    const type = reply.getHeader('content-type')
    if (typeof type === 'string' && type.startsWith('application/json')) {
      void reply.headers(JSON_HEADERS)
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
    }
    done(null, payload)
  })

  if ((options.logger as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? true) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request'
      )
      done()
    })
  }

  if (options.corsOrigins !== undefined) {
    await app.register(cors, {
      // A literal "*" for open APIs: no per-request origin reflection and no Vary header needed
      // (these APIs take bearer tokens, never cookies, so credentials mode is not used).
      origin: options.corsOrigins === '*' ? '*' : options.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id', ...(options.corsAllowedHeaders ?? [])],
      exposedHeaders: ['X-Request-Id']
    })
  }

  const documentedErrors = options.openapi?.errorResponses
  await app.register(swagger, {
    ...(documentedErrors ? {
      transform: ({ schema, url }: { schema: FastifySchema; url: string }) => {
        if (!schema || url === '/health') return { schema, url }
        const response = { ...(schema.response as Record<string, unknown> | undefined) }
        for (const [status, body] of Object.entries(documentedErrors)) response[status] ??= body
        return { schema: { ...schema, response }, url }
      }
    } : {}),
    openapi: {
      openapi: '3.1.0',
      info: { title: `Quartet ${options.name}`, description: options.description, version: options.version ?? '1.0.0' },
      components: { securitySchemes: (options.openapi?.securitySchemes ?? {}) as never },
      ...(options.openapi?.security ? { security: options.openapi.security } : {}),
      ...(options.openapi?.tags ? { tags: options.openapi.tags } : {})
    }
  })
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true })

  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger())

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('ok'), service: Type.String(), uptimeSeconds: Type.Number() }),
          503: Type.Object({ status: Type.Literal('unavailable'), service: Type.String(), reason: Type.String() })
        }
      }
    },
    async (_request, reply) => {
      try {
        await options.healthCheck?.()
        return { status: 'ok' as const, service: options.name, uptimeSeconds: Math.round(process.uptime()) }
      } catch (error) {
        return reply.code(503).send({ status: 'unavailable' as const, service: options.name, reason: String(error) })
      }
    }
  )

  return app
}
