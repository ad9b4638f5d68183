import { stderrLogger, type LogFormat, type Logger } from '../../core/logger.js'
import type { StartupNote } from '../../core/service.js'

/** A listening service or companion, as the banner and the ready record show it. */
export interface Listener {
  name: string
  url: string
  port: number
  /** The service's API documentation (companions have none). */
  docs?: string
}

export type DatabaseInUse = { dialect: 'postgres' } | { dialect: 'sqlite'; file: string }

/**
 * What `quartet serve` itself says on stdout: the start-up banner, `ready` and the shutdown
 * lines. On a terminal they are text; otherwise JSON records through the service logger, so
 * that stdout holds one JSON object per line, in order with the request logs.
 */
export interface ServeOutput {
  notAvailable(name: string): void
  portIgnored(): void
  database(database: DatabaseInUse): void
  listening(listener: Listener, notes?: readonly StartupNote[]): void
  ready(listeners: readonly Listener[]): void
  stopping(signal: string): void
  stopped(): void
}

/** The command's own errors on stderr (refusals, failed start-up, forced exits). */
export interface Diagnostics {
  error(message: string, fields?: Record<string, unknown>): void
}

const PORT_IGNORED = 'PORT is ignored because several services start; use <SERVICE>_PORT.'
const stoppingText = (signal: string) => `${signal} received: draining requests and closing…`

export function serveOutput(format: LogFormat, logger: Logger): ServeOutput {
  return format === 'json' ? jsonOutput(logger) : textOutput()
}

export function diagnostics(format: LogFormat): Diagnostics {
  if (format === 'pretty')
    return {
      error: (message) => {
        process.stderr.write(`${message}\n`)
      }
    }
  const log = stderrLogger()
  return { error: (message, fields = {}) => log.error(fields, message) }
}

function textOutput(): ServeOutput {
  const write = (line: string) => {
    process.stdout.write(`${line}\n`)
  }
  const column = (name: string) => name.padEnd(12)
  return {
    notAvailable: (name) => write(`${column(name)} not available yet`),
    portIgnored: () => write(PORT_IGNORED),
    database: (db) => write(`${column('database')} ${db.dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `SQLite ${db.file}`}`),
    listening(listener, notes = []) {
      write(`${column(listener.name)} ${listener.url}${listener.docs ? `  docs ${listener.docs}` : ''}`)
      for (const note of notes) write(`${column('')} ${noteText(note)}`)
    },
    ready: () => write('ready'),
    stopping: (signal) => write(stoppingText(signal)),
    stopped: () => write('Stopped.')
  }
}

function noteText(note: StartupNote): string {
  if (typeof note === 'string') return note
  // A hint belongs to the line above it (auth: …), so it is indented under that line's text.
  if ('command' in note) return `      ${note.hint}: ${note.command}`
  return note.warning
}

function jsonOutput(logger: Logger): ServeOutput {
  // Written whatever LOG_LEVEL says, as the banner is on a terminal: whoever waits for `ready`
  // must see it.
  const log = logger.child({}, { level: 'info' })
  return {
    notAvailable: (name) => log.warn({ service: name }, `${name} not available yet`),
    portIgnored: () => log.warn(PORT_IGNORED),
    database: (db) =>
      log.info(
        db.dialect === 'postgres' ? { database: 'postgres', from: 'DATABASE_URL' } : { database: 'sqlite', file: db.file },
        'database'
      ),
    listening(listener, notes = []) {
      log.info(
        { service: listener.name, url: listener.url, port: listener.port, ...(listener.docs ? { docs: listener.docs } : {}) },
        `${listener.name} listening at ${listener.url}`
      )
      for (const note of notes) {
        if (typeof note === 'string') log.info({ service: listener.name }, note.trim())
        else if ('command' in note) log.info({ service: listener.name, command: note.command }, note.hint)
        else log.warn({ service: listener.name }, note.warning)
      }
    },
    ready(listeners) {
      log.info({ services: Object.fromEntries(listeners.map(({ name, ...where }) => [name, where])) }, 'ready')
      // The stdout destination buffers up to 4 KiB; `ready` must not wait for the next flush.
      logger.flush()
    },
    stopping: (signal) => log.info({ signal }, stoppingText(signal)),
    stopped: () => log.info('Stopped.')
  }
}
