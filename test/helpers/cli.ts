import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..', '..')
export const CLI_ENTRY = path.join(root, 'src', 'cli', 'main.ts')

/** One JSON log record of `quartet serve` (its stdout is not a terminal here). */
export interface LogRecord {
  level: number
  msg: string
  [field: string]: unknown
}

export interface RunningCli {
  child: ChildProcess
  /** Base URL of each started service (and companion), by name, from the `ready` record. */
  urls: Record<string, string>
  /** The `ready` record: `services` maps each name to its url, port (and docs). */
  ready: LogRecord
  /** Every stdout line so far, parsed (a line that is not a JSON object makes startCli fail or lands in `invalidLines`). */
  records(): LogRecord[]
  /** Stdout lines that did not parse as one JSON object. */
  invalidLines(): string[]
  /** Stdout and stderr as received. */
  output(): string
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** Runs `quartet <args>` (from source, through tsx) to completion. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  input?: string
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(input ?? '')
  })
}

/** A stdout line as a log record, or undefined when it is not one JSON object with a message. */
export function parseRecord(line: string): LogRecord | undefined {
  try {
    const value = JSON.parse(line) as unknown
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as LogRecord).msg === 'string')
      return value as LogRecord
  } catch {
    /* not JSON */
  }
  return undefined
}

/**
 * Starts `quartet serve …` with piped stdout, as a log collector reads it, and waits for the
 * `ready` record. Pass ports as 0 in env to get free ones; the ready record's URLs are `urls`.
 */
export function startCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 30_000): Promise<RunningCli> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, ...args], {
      cwd: root,
      // The default format is under test here, whatever the caller's environment chose.
      env: { ...process.env, LOG_LEVEL: 'warn', QUARTET_LOG_FORMAT: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    let pending = ''
    const records: LogRecord[] = []
    const invalid: string[] = []
    let ready: LogRecord | undefined
    const fail = (message: string) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`${message}:\n${out}`))
    }
    const timer = setTimeout(() => fail(`CLI did not become ready in ${timeoutMs} ms`), timeoutMs)
    // 'close', not 'exit': the last stdout lines (the shutdown records) are read by then.
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)))
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString()
      pending += data.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        const record = parseRecord(line)
        if (!record) {
          invalid.push(line)
          if (!ready) fail(`stdout line is not a JSON record: ${JSON.stringify(line)}`)
          continue
        }
        records.push(record)
        if (ready || record.msg !== 'ready') continue
        ready = record
        clearTimeout(timer)
        const services = (record.services ?? {}) as Record<string, { url: string }>
        resolve({
          child,
          urls: Object.fromEntries(Object.entries(services).map(([name, where]) => [name, where.url])),
          ready: record,
          records: () => records,
          invalidLines: () => (pending ? [...invalid, pending] : invalid),
          output: () => out,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal)
            return exited
          }
        })
      }
    })
    child.stderr.on('data', (data: Buffer) => {
      out += data.toString()
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`CLI exited with ${code} before ready:\n${out}`))
    })
  })
}

/**
 * Where a spawned CLI keeps its data: on PostgreSQL (DATABASE_URL set) a schema of its own, put
 * on the search_path through the connection URL and dropped by `cleanup`, so e2e runs never see
 * each other's rows; otherwise the data dir's SQLite (DATABASE_URL left unset).
 */
export async function isolatedDatabaseEnv(
  prefix: string
): Promise<{ DATABASE_URL: string | undefined; schema?: string; cleanup(): Promise<void> }> {
  const url = process.env.DATABASE_URL
  if (!url) return { DATABASE_URL: undefined, cleanup: async () => undefined }
  const { default: pg } = await import('pg')
  const { randomBytes } = await import('node:crypto')
  const { testSchemaPrefix } = await import('./db.js')
  const schema = `${testSchemaPrefix('e2e')}${prefix}_${randomBytes(5).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  await admin.end()
  return {
    DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    schema,
    async cleanup() {
      if (process.env.QUARTET_TEST_RUN) return // dropped by the runner after the whole run
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`drop schema if exists ${schema} cascade`)
      await client.end()
    }
  }
}
