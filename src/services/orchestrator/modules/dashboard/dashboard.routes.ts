/**
 * The web dashboard at `/`: its index page (with the token for loopback callers, see dashboard-page.ts)
 * and its fingerprinted assets. The pages route on the URL hash, so no other path is the dashboard's.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { ACCESS } from '../../gates/route-access.js'
import { dashboardDistDir, injectToken, MISSING_PAGE, mayReceiveToken, readIndexHtml } from './dashboard-page.js'

export interface DashboardRoutesDeps {
  /** The API token (undefined when authentication is off or no token exists). */
  token: string | undefined
  distDir?: string
}

const ASSET = /^[A-Za-z0-9._-]{1,200}$/
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2'
}
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
const config = { access: ACCESS.public }

function pageHeaders(reply: FastifyReply): FastifyReply {
  // The page may hold the token: never cached, never framed.
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', CSP)
    .header('x-frame-options', 'DENY')
}

export function dashboardRoutes(deps: DashboardRoutesDeps) {
  const distDir = deps.distDir ?? dashboardDistDir()
  const assetsDir = path.join(distDir, 'assets')
  return async function register(app: App) {
    for (const url of ['/', '/index.html']) {
      app.get(url, { exposeHeadRoute: false, config, schema: { summary: 'The web dashboard (HTML)', hide: true } }, (request, reply) => {
        const html = readIndexHtml(distDir)
        if (html === null) return pageHeaders(reply).code(503).send(MISSING_PAGE)
        const caller = {
          remoteAddress: request.raw.socket?.remoteAddress,
          host: request.headers.host,
          origin: typeof request.headers.origin === 'string' ? request.headers.origin : undefined
        }
        const withToken = deps.token !== undefined && mayReceiveToken(caller)
        return pageHeaders(reply).send(withToken ? injectToken(html, deps.token!) : html)
      })
    }

    app.get(
      '/assets/:file',
      {
        exposeHeadRoute: false,
        config,
        schema: { summary: 'A dashboard asset', hide: true, params: Type.Object({ file: Type.String() }) }
      },
      async (request, reply) => {
        const { file } = request.params
        const type = TYPES[path.extname(file)]
        if (!ASSET.test(file) || file.startsWith('.') || !type) return reply.code(404).send({ error: 'Not found' })
        let body: Buffer
        try {
          body = await fs.promises.readFile(path.join(assetsDir, file))
        } catch {
          return reply.code(404).send({ error: 'Not found' })
        }
        // Vite fingerprints asset names, so a name always holds the same bytes.
        return reply.type(type).header('cache-control', 'public, max-age=31536000, immutable').send(body)
      }
    )
  }
}
