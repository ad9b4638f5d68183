import type { FastifySchema } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { App } from '../server.js'

export interface OpenApiOptions {
  /** Service name: the document's title is "Quartet <name>". */
  name: string
  description: string
  version?: string
  securitySchemes?: Record<string, unknown>
  security?: Record<string, string[]>[]
  tags?: { name: string; description?: string }[]
  /**
   * Error responses to document on every route (status → body schema). They are added to the
   * OpenAPI document only, not compiled into each route's serializers: errors are rare, and
   * dozens of compiled error serializers per service cost memory for nothing.
   */
  errorResponses?: Record<number, unknown>
  /** Routes left out of errorResponses (e.g. health, streams). */
  plainRoutes?: string[]
}

/** The OpenAPI 3.1 document at /openapi.json and interactive docs at /docs. Register before the routes. */
export async function openApiDocs(app: App, options: OpenApiOptions): Promise<void> {
  const documentedErrors = options.errorResponses
  const plain = new Set(options.plainRoutes ?? ['/health'])
  await app.register(swagger, {
    ...(documentedErrors
      ? {
          transform: ({ schema, url }: { schema: FastifySchema; url: string }) => {
            if (!schema || plain.has(url)) return { schema, url }
            const response = { ...(schema.response as Record<string, unknown> | undefined) }
            for (const [status, body] of Object.entries(documentedErrors)) response[status] ??= body
            return { schema: { ...schema, response }, url }
          }
        }
      : {}),
    openapi: {
      openapi: '3.1.0',
      info: { title: `Quartet ${options.name}`, description: options.description, version: options.version ?? '1.0.0' },
      components: { securitySchemes: (options.securitySchemes ?? {}) as never },
      ...(options.security ? { security: options.security } : {}),
      ...(options.tags ? { tags: options.tags } : {})
    }
  })
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true })
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger())
}
