import type { FastifyBaseLogger } from 'fastify'
import type { App } from '../server.js'
import { redactUrl } from '../redact-url.js'

/** One structured line per request (method, redacted URL, status, time), when info is logged at all. */
export function requestLog(app: App): void {
  const logger = app.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }
  if (!(logger.isLevelEnabled?.('info') ?? true)) return
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request'
    )
    done()
  })
}
