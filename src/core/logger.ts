import pino, { type Logger } from 'pino'
import pretty from 'pino-pretty'
import { redactServerSecrets } from './http/redact-url.js'

export type { Logger }

/**
 * Bytes buffered before a write to stdout, so that about 80 request lines become one write: each
 * write costs a thread-pool round trip and a file-system write, and at 4 KB that was about half of
 * what a request line cost (docs/performance.md). The once-a-second flush bounds the delay.
 */
const BUFFER_BYTES = 16384
const MAX_WRITE_BYTES = 65536

export type LogFormat = 'json' | 'pretty'

/** Every line passes here last: the exact values of this server's own secrets never reach the output. */
const hooks = { streamWrite: redactServerSecrets }

/**
 * The format of one output stream: the requested one (QUARTET_LOG_FORMAT, --log-format) when it
 * names a format, otherwise pretty only on a terminal — a file, a pipe or a log collector gets
 * one JSON object per line.
 */
export function logFormatOf(stream: { isTTY?: boolean }, requested?: string): LogFormat {
  if (requested === 'json' || requested === 'pretty') return requested
  return stream.isTTY ? 'pretty' : 'json'
}

/**
 * JSON logs, or pretty ones (by default on an interactive terminal). JSON lines go through an
 * asynchronous, buffered stdout destination: a synchronous write per request line cost a large
 * share of a small request's time (docs/performance.md). The buffer is written out every second
 * without blocking (sonic-boom's flushSync also fsyncs, which stalled the event loop for
 * milliseconds every second when stdout is a file) and synchronously at exit, so no line is lost.
 */
export function createLogger(level: string, options: { format?: LogFormat } = {}): Logger {
  const format = options.format ?? logFormatOf(process.stdout, process.env.QUARTET_LOG_FORMAT)
  if (format === 'pretty') {
    // Pretty output forced into a file or pipe stays free of colour escapes.
    const colorize = Boolean(process.stdout.isTTY)
    // In this thread and synchronous (not a transport's worker): the banner written to stdout and
    // the log lines then come out in the order they happened, so `ready` is the last line at
    // start-up. One line per record, the same layout for every service.
    return pino(
      { level, hooks },
      pretty({ colorize, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true, sync: true, destination: 1 })
    )
  }
  // Buffer mode: in string mode sonic-boom measures its whole pending string again on every write
  // (Buffer.byteLength), which made the write cost more than building the line (docs/performance.md).
  const destination = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES, maxWrite: MAX_WRITE_BYTES, contentMode: 'buffer' })
  const flushSync = () => {
    try {
      destination.flushSync()
    } catch {
      /* stdout already closed */
    }
  }
  setInterval(() => {
    try {
      destination.flush()
    } catch {
      /* stdout already closed */
    }
  }, 1000).unref()
  process.once('exit', flushSync)
  const lines = { write: (line: string) => destination.write(Buffer.from(line) as unknown as string) }
  return pino({ level, hooks }, lines)
}

/** JSON records on stderr, written synchronously: they are often the last words before an exit. */
export function stderrLogger(): Logger {
  return pino({ level: 'info', hooks }, pino.destination({ dest: 2, sync: true }))
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}
