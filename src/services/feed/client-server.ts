import fs from 'node:fs'
import path from 'node:path'
import Fastify, { type FastifyBaseLogger, type FastifyRequest } from 'fastify'
import fastifyStatic from '@fastify/static'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { App } from '../../core/http/server.js'

/** Where `npm run build` puts the web client (the same from src/ through tsx and from dist/). */
export function feedClientDistDir(): string {
  return path.resolve(import.meta.dirname, '..', '..', '..', 'dist', 'web', 'feed-client')
}

export function feedClientBuilt(dir = feedClientDistDir()): boolean {
  return fs.existsSync(path.join(dir, 'index.html'))
}

export interface FeedClientServerOptions {
  /** Base URL of the feed API the browser talks to. */
  apiUrl: string
  logger: FastifyBaseLogger
  distDir?: string
}

/** The API origin as the browser should see it: a wildcard bind address becomes the host the page came from. */
function browserApiUrl(apiUrl: string, request: FastifyRequest): URL {
  const url = new URL(apiUrl)
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = request.hostname.replace(/:\d+$/, '')
  return url
}

/**
 * A small static server for the built web client. It tells the page where the API is through
 * /config.js (window.__FEED_API__) and answers unknown paths with index.html (client routing).
 */
export async function buildFeedClientServer(options: FeedClientServerOptions): Promise<App> {
  const root = options.distDir ?? feedClientDistDir()
  if (!feedClientBuilt(root)) throw new Error(`The feed web client is not built (no ${path.join(root, 'index.html')}): run npm run build`)
  const app = Fastify({ loggerInstance: options.logger }).withTypeProvider<TypeBoxTypeProvider>()

  app.addHook('onSend', (request, reply, payload, done) => {
    const api = browserApiUrl(options.apiUrl, request)
    const ws = `${api.protocol === 'https:' ? 'wss' : 'ws'}://${api.host}`
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'no-referrer')
    reply.header('x-frame-options', 'DENY')
    reply.header(
      'content-security-policy',
      `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: ${api.origin}; ` +
        `connect-src 'self' ${api.origin} ${ws}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`
    )
    done(null, payload)
  })

  app.get('/config.js', (request, reply) => {
    const api = browserApiUrl(options.apiUrl, request).toString().replace(/\/$/, '')
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(`window.__FEED_API__ = ${JSON.stringify(api)};\n`)
  })
  app.get('/health', () => ({ status: 'ok', service: 'feed-client' }))

  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders(res, file) {
      // Vite fingerprints asset names; index.html must always be revalidated.
      res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache')
    }
  })
  app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'))
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && !path.extname(request.url.split('?')[0] ?? '')
    if (wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html')
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found')
  })
  return app
}
