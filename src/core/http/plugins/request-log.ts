import pino, { type Logger } from 'pino'
import type { App } from '../server.js'
import { redactUrl } from '../redact-url.js'

const { chindingsSym, streamSym } = pino.symbols

/** What pino keeps on a logger under its exported symbols: its destination and its bindings, serialized. */
function internals(log: Logger): { stream?: { write(line: string): unknown }; bindings?: unknown } {
  const fields = log as unknown as Record<symbol, unknown>
  return { stream: fields[streamSym] as { write(line: string): unknown } | undefined, bindings: fields[chindingsSym] }
}

/**
 * One structured line per request (method, redacted URL, status, time), when info is logged at all.
 * The line is what pino's `info` would write (level, time, the logger's bindings with the request
 * id, the fields, msg), put together directly: pino's generic object serializer cost about as much
 * as the rest of a small request (docs/performance.md). Loggers that are not pino go through `info`.
 */
export function requestLog(app: App): void {
  const logger = app.log as Logger
  if (!(logger.isLevelEnabled?.('info') ?? true)) return
  const level = logger.levels?.values.info ?? 30
  app.addHook('onResponse', (request, reply, done) => {
    const log = request.log as Logger
    const { stream, bindings } = internals(log)
    const fields = { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }
    if (typeof stream?.write === 'function' && typeof bindings === 'string') {
      stream.write(`{"level":${level},"time":${Date.now()}${bindings},"method":${JSON.stringify(fields.method)},"url":${JSON.stringify(fields.url)},"statusCode":${fields.statusCode},"ms":${fields.ms},"msg":"request"}\n`)
    } else {
      log.info(fields, 'request')
    }
    done()
  })
}
