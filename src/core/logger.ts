import pino, { type Logger } from 'pino'

export type { Logger }

/** JSON logs, or pretty ones on an interactive terminal. */
export function createLogger(level: string, options: { pretty?: boolean } = {}): Logger {
  const pretty = options.pretty ?? Boolean(process.stdout.isTTY)
  if (pretty) {
    return pino({ level, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } })
  }
  return pino({ level })
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}
