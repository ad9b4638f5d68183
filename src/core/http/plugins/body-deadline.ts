import type { FastifyRequest } from 'fastify'
import type { App } from '../server.js'

export interface BodyDeadlineOptions {
  /** A request body (other than an upload) must arrive whole within this many milliseconds. */
  bodyMs: number
  /** Uploads are held to a rate instead: after `graceMs`, at least `minBytesPerSecond` on average. */
  upload?: { isUpload(request: FastifyRequest): boolean; graceMs: number; minBytesPerSecond: number }
  /** How often pending bodies are checked (default 1 s). */
  checkIntervalMs?: number
}

const REQUEST_TIMEOUT = Object.assign(new Error('Request body timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' })

/**
 * Deadlines for receiving request bodies, per request, for a server whose own request timeout
 * must be long (large uploads on slow links): a JSON body that stalls (6 of 100 declared bytes)
 * is cut after `bodyMs` instead of holding its socket for the whole request timeout, and an
 * upload is cut as soon as its average rate falls below the minimum. A cut body is answered like
 * Node's own request timeout: 408 in the service's shape, connection closed.
 */
export function bodyDeadlines(app: App, options: BodyDeadlineOptions): void {
  const interval = options.checkIntervalMs ?? 1000
  app.addHook('onRequest', (request, reply, done) => {
    const headers = request.headers
    const hasBody =
      headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
    const raw = request.raw
    if (!hasBody || raw.complete) return done()
    const socket = raw.socket
    const upload = options.upload?.isUpload(request) ? options.upload : undefined
    const started = performance.now()
    const startBytes = socket.bytesRead
    const timer = setInterval(() => {
      if (raw.complete || raw.destroyed) return stop()
      const elapsed = performance.now() - started
      const late = upload
        ? elapsed >= upload.graceMs && ((socket.bytesRead - startBytes) * 1000) / elapsed < upload.minBytesPerSecond
        : elapsed >= options.bodyMs
      if (!late) return
      stop()
      request.log.info(
        { ms: Math.round(elapsed), bytes: socket.bytesRead - startBytes, upload: upload !== undefined },
        'request body too slow: cut'
      )
      app.server.emit('clientError', REQUEST_TIMEOUT, socket)
    }, interval)
    timer.unref()
    const stop = () => clearInterval(timer)
    raw.once('end', stop)
    raw.once('close', stop)
    reply.raw.once('finish', stop)
    done()
  })
  // Answered before its body arrived (refused, too large, unauthenticated): Node would read the rest
  // of the body, however large, to keep the connection; closing it stops the upload instead.
  app.addHook('onSend', (request, reply, payload, done) => {
    const headers = request.headers
    const hasBody =
      headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
    if (hasBody && !request.raw.complete) reply.header('connection', 'close')
    done(null, payload)
  })
}
