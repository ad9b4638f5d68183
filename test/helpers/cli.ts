import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..', '..')
export const CLI_ENTRY = path.join(root, 'src', 'cli', 'main.ts')

export interface RunningCli {
  child: ChildProcess
  /** Base URL of each started service (and companion), by name, as printed at start-up. */
  urls: Record<string, string>
  output(): string
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** Runs `quartet <args>` (from source, through tsx) to completion. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(input ?? '')
  })
}

/**
 * Starts `quartet serve …` and waits for its "ready" line. Pass ports as 0 in env to get free
 * ones; the printed URLs are parsed into `urls`.
 */
export function startCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 30_000): Promise<RunningCli> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    const urls: Record<string, string> = {}
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`CLI did not become ready in ${timeoutMs} ms:\n${out}`))
    }, timeoutMs)
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
    const onData = (data: Buffer) => {
      out += data.toString()
      for (const match of out.matchAll(/^(\S+)\s+(https?:\/\/\S+)/gm)) urls[match[1] as string] = match[2] as string
      if (/^ready$/m.test(out)) {
        clearTimeout(timer)
        resolve({
          child,
          urls,
          output: () => out,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal)
            return exited
          }
        })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
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
export async function isolatedDatabaseEnv(prefix: string): Promise<{ DATABASE_URL: string | undefined; cleanup(): Promise<void> }> {
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
    async cleanup() {
      if (process.env.QUARTET_TEST_RUN) return // dropped by the runner after the whole run
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`drop schema if exists ${schema} cascade`)
      await client.end()
    }
  }
}
