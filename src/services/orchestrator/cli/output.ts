/** Terminal output of the orchestrator commands: colours and redraws only on a TTY, never in a pipe. */
import { isAppError } from '../../../core/errors/app-error.js'
import type { ConfigError } from '../project/config.js'

export const EXIT_OK = 0
export const EXIT_FAILED = 1
export const EXIT_USAGE = 2
export const EXIT_ORPHANED = 3

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE
  ) {
    super(message)
    this.name = 'CliError'
  }
}

export const isTty = (): boolean => process.stdout.isTTY === true

const useColour = (): boolean => isTty() && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb'

function paint(code: string) {
  return (text: string): string => (useColour() ? `\x1b[${code}m${text}\x1b[0m` : text)
}

export const style = { green: paint('32'), red: paint('31'), yellow: paint('33'), cyan: paint('36'), dim: paint('2'), bold: paint('1') }

const STATUS_STYLE: Record<string, (text: string) => string> = {
  DONE: style.green,
  COMPLETE: style.green,
  NO_GO: style.red,
  ORPHANED: style.red,
  ABORTED: style.red,
  BLOCKED: style.yellow,
  CANCELLED: style.yellow,
  EXECUTING: style.cyan,
  TESTING: style.cyan,
  CLAIMED: style.cyan,
  ACTIVE: style.cyan,
  RUNNING: style.cyan
}

/** A status word, padded first so colour codes do not break column widths. */
export function statusText(status: string, width = 0): string {
  return (STATUS_STYLE[status] ?? ((t: string) => t))(status.padEnd(width))
}

export function out(line = ''): void {
  process.stdout.write(`${line}\n`)
}

export function err(line: string): void {
  process.stderr.write(`${line}\n`)
}

/** Plain columns: every cell padded to its column's widest (the last column is not padded). */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line)]
}

export function firstLine(text: string | null | undefined): string {
  return (text ?? '').split('\n')[0] ?? ''
}

export function clock(iso: string): string {
  const date = new Date(iso)
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':')
}

export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  return m < 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
}

export function configErrorLines(file: string, errors: readonly ConfigError[]): string[] {
  return [
    `${file} is invalid:`,
    ...errors.map((e) => `  ${e.path ? `${e.path}: ` : ''}${e.message}`),
    'Fix these keys (quartet doctor checks the file again).'
  ]
}

/** The message of an engine error as a terminal user needs it (HTTP wording replaced by commands). */
export function describeError(error: unknown): { message: string; exitCode: number } {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode }
  if (isAppError(error)) {
    switch (error.code) {
      case 'ORCH_NOTHING_PLANNED':
        // The engine names the resume when a crashed or killed sprint is waiting for one.
        return {
          message: error.message.includes('--resume') ? error.message : 'Nothing is planned: run quartet plan first.',
          exitCode: EXIT_USAGE
        }
      case 'ORCH_NOTHING_TO_RESUME':
        return {
          message:
            'Nothing to resume: no sprint has orphaned or killed tasks ' +
            '(quartet status shows the last run; quartet run starts a planned one).',
          exitCode: EXIT_USAGE
        }
      case 'ORCH_SPRINT_ACTIVE':
        return { message: 'A sprint is active: wait for it or stop it with quartet kill.', exitCode: EXIT_FAILED }
      default:
        return { message: error.message, exitCode: error.statusCode < 500 ? EXIT_USAGE : EXIT_FAILED }
    }
  }
  return { message: error instanceof Error ? error.message : String(error), exitCode: EXIT_FAILED }
}
