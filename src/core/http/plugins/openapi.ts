import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { FastifySchema } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { App } from '../server.js'

export interface OpenApiOptions {
  /** Service name: the document's title is "Quartet <name>". */
  name: string
  description: string
  /** How a newcomer gets a credential for this service (Markdown), shown on the /docs page. */
  credentials: string
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
      info: {
        title: `Quartet ${options.name}`,
        description: `${options.description}\n\n**Getting a credential.** ${options.credentials}`,
        version: options.version ?? '1.0.0'
      },
      components: { securitySchemes: (options.securitySchemes ?? {}) as never },
      ...(options.security ? { security: options.security } : {}),
      ...(options.tags ? { tags: options.tags } : {})
    }
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: docsCsp(),
    logo: { type: 'image/svg+xml', content: quartetLogo(options.name) },
    theme: { title: `Quartet ${options.name} — API docs` }
  })
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger())
}

/** The wordmark in the docs page's top bar (instead of the Swagger logo), white on its dark bar. */
function quartetLogo(name: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="40" viewBox="0 0 320 40">` +
    `<text x="0" y="29" font-family="system-ui, sans-serif" font-size="26" font-weight="700" fill="#ffffff">Quartet ` +
    `<tspan font-weight="400" fill="#9fd3ff">${name}</tspan></text></svg>`
  )
}

let cachedCsp: string | undefined

/**
 * The docs page's Content-Security-Policy. Swagger UI's standalone preset renders its own logo as an
 * inline SVG with a <style> element before our logo replaces it; a CSP without that style's hash
 * logs a violation in the browser console on every load. The hashes are computed from the installed
 * bundles, so an upgrade of Swagger UI keeps the header consistent with the styles it injects.
 * No `upgrade-insecure-requests` (the services speak plain HTTP: a browser on another host would
 * fetch the page's scripts over https and get nothing) and no validator or `https:` sources.
 */
function docsCsp(): string {
  if (cachedCsp !== undefined) return cachedCsp
  const hashes = swaggerInlineStyles().map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`)
  cachedCsp = [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' data:",
    "frame-ancestors 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "form-action 'self'",
    "script-src 'self'",
    "script-src-attr 'none'",
    ["style-src 'self'", ...hashes].join(' ')
  ].join('; ')
  return cachedCsp
}

/** The texts of the <style> elements Swagger UI's scripts create (React `createElement("style", null, "…")`). */
function swaggerInlineStyles(): string[] {
  const staticDir = path.join(path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static')
  const texts = new Set<string>()
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']) {
    const source = fs.readFileSync(path.join(staticDir, file), 'utf8')
    for (const match of source.matchAll(/createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g))
      texts.add(JSON.parse(match[1] as string) as string)
  }
  return [...texts]
}
