/**
 * What every benchmark phase shares: the raw node:http baseline and fixed-body servers, starting
 * the built CLI as users run it, autocannon rounds and reading a process's memory and CPU.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import type { BenchContext, CustomResult, HttpScenario } from './types.js'

export const root = path.resolve(import.meta.dirname, '..')
export const DURATION = Number(process.env.BENCH_DURATION ?? 8)
export const CONNECTIONS = 50
export const ROUNDS = 3
export const ROUND_SECONDS = Math.max(2, Math.round(DURATION / 2))
export const CLI = path.join(root, 'dist', 'cli', 'main.js')
// A service alone runs with the V8 flags of the `quartet` shebang (docs/decisions.md, "Memory").
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--no-allocation-site-pretenuring']
// Every service in one process runs with the flags `npm start` gives it, read from package.json.
export const USERS_RUN_NODE_FLAGS = npmStartNodeFlags()

function npmStartNodeFlags(): string[] {
  const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
  const command = scripts.start
    ?.split('&&')
    .map((part) => part.trim())
    .find((part) => part.includes('dist/cli/main.js serve'))
  if (!command) throw new Error(`package.json's start script does not run dist/cli/main.js serve: ${scripts.start}`)
  return command.split(/\s+/).filter((word) => word.startsWith('--'))
}

export interface HttpRow {
  service: string
  name: string
  rps: number
  baselineRps: number
  ratio: number
  p50: number
  p99: number
  non2xx: number
  errors: number
  /** CPU of the server process and of the load generator in the median round, as shares of one core. */
  serverCpu: number
  loaderCpu: number
  target?: HttpScenario['target']
  met?: boolean
}
export interface CustomRow {
  service: string
  name: string
  result: CustomResult
}
export interface MemoryRow {
  service: string
  idleMb: number
  peakMb: number
}

export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)
    return match ? Number(match[1]) / 1024 : NaN
  } catch {
    return NaN
  }
}

/**
 * One autocannon round. Besides throughput and latency it measures what bounds the round: the CPU the load generator
 * (this process) used and, given its pid, the server's — each as a share of one core over the round's wall time.
 */
export async function load(
  url: string,
  scenario: Pick<HttpScenario, 'method' | 'headers' | 'body' | 'connections' | 'rotatePaths'>,
  duration = DURATION,
  serverPid?: number,
  /** A fixed request rate over all connections instead of as many as the server answers. */
  overallRate?: number
) {
  const paths = scenario.rotatePaths
  let next = 0
  const startedAt = performance.now()
  const loaderBefore = process.cpuUsage()
  const serverTimes = () => (serverPid === undefined ? { user: NaN, system: NaN } : cpuTimes(serverPid))
  const serverBefore = serverTimes()
  const result = await autocannon({
    url,
    ...(paths
      ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length]! }) }] }
      : {}),
    method: scenario.method,
    headers: scenario.headers ?? {},
    ...(scenario.body !== undefined ? { body: scenario.body } : {}),
    connections: scenario.connections ?? CONNECTIONS,
    ...(overallRate !== undefined ? { overallRate } : {}),
    duration
  })
  const wallMs = performance.now() - startedAt
  const loader = process.cpuUsage(loaderBefore)
  const serverAfter = serverTimes()
  const serverSystemMs = serverAfter.system - serverBefore.system
  const serverCpuMs = serverAfter.user - serverBefore.user + serverSystemMs
  return {
    loaderCpu: (loader.user + loader.system) / 1000 / wallMs,
    serverCpu: serverCpuMs / wallMs,
    serverCpuMs,
    /** Of it, the time in the kernel (system calls, the network stack). */
    serverSystemMs,
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts
  }
}

export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}:\n${out}`)), timeoutMs)
    const onData = (d: Buffer) => {
      out += d.toString()
      if (pattern.test(out)) {
        clearTimeout(timer)
        resolve(out)
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`process exited (${code}) before ${pattern}:\n${out}`))
    })
  })
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

export interface Baseline {
  url: string
  pid: number
  child: ChildProcess
  idleMb: number
}

/**
 * Starts a raw node:http server in its own process that answers every request with `body` — the
 * JSON hello-world baseline, or a service's response replayed (the ceiling of the load generator
 * for responses of that size).
 */
export async function startFixedBodyServer(
  body: Buffer,
  /** Status and headers to answer with instead of 200 and a JSON content type (a service's answer replayed as it was). */
  head?: { status: number; headers: Record<string, string | string[]> }
): Promise<Baseline> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-body-'))
  const file = path.join(dir, 'body')
  fs.writeFileSync(file, body)
  const status = head?.status ?? 200
  const headers = head?.headers ?? { 'content-type': 'application/json', 'content-length': String(body.length) }
  const code = `
    const http = require('node:http')
    const body = require('node:fs').readFileSync(process.argv[1])
    const headers = JSON.parse(process.argv[2])
    http.createServer((req, res) => { res.writeHead(${status}, headers); res.end(body) })
      .listen(0, '127.0.0.1', function () { console.log('listening ' + this.address().port) })`
  const child = spawn(process.execPath, ['-e', code, file, JSON.stringify(headers)], { stdio: ['ignore', 'pipe', 'pipe'] })
  // The server has read the file once it listens.
  const out = await waitForLine(child, /listening \d+/).finally(() => fs.rmSync(dir, { recursive: true, force: true }))
  const port = /listening (\d+)/.exec(out)?.[1]
  const url = `http://127.0.0.1:${port}/`
  const idleMb = rssMb(child.pid as number)
  await load(url, { method: 'GET' }, 2) // warm-up
  return { url, pid: child.pid as number, child, idleMb }
}

/** Starts the raw node:http JSON hello-world the service rows are compared with. */
export function startBaseline(): Promise<Baseline> {
  return startFixedBodyServer(Buffer.from(JSON.stringify({ hello: 'world' })))
}

/** One baseline round, taken right before the scenario round it is compared with. */
export async function measureBaseline(base: Baseline) {
  return load(base.url, { method: 'GET' }, ROUND_SECONDS, base.pid)
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

export interface RunningServer {
  urls: Record<string, string>
  pid: number
  child: ChildProcess
  logFile: string
  dataDir: string
}

/** The URL of each service in the `ready` record, once the log holds it (stderr lines in the same file are not JSON and are skipped). */
export function readyUrls(log: string): Record<string, string> | undefined {
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue
    let record: { msg?: unknown; services?: Record<string, { url: string }> }
    try {
      record = JSON.parse(line) as typeof record
    } catch {
      continue // the line being written
    }
    if (record.msg === 'ready') return Object.fromEntries(Object.entries(record.services ?? {}).map(([name, where]) => [name, where.url]))
  }
  return undefined
}

/** Builds before the JSON `ready` record (2026-11-22) printed "<service>  <url>" lines and then "ready". */
function legacyReadyUrls(log: string, services: string[]): Record<string, string> | undefined {
  if (services.length === 0 || !/^ready$/m.test(log)) return undefined
  const urls = Object.fromEntries(services.map((name) => [name, new RegExp(`^${name}\\s+(http://\\S+)`, 'm').exec(log)?.[1]]))
  return Object.values(urls).every((url) => url !== undefined) ? (urls as Record<string, string>) : undefined
}

/**
 * Starts the built CLI (`quartet serve <services…>`) with its output going to a file — as a log
 * collector would take it: JSON lines — and resolves each service's URL from its `ready` record.
 */
export interface ServerBuild {
  /** The built CLI to start (default: this checkout's dist/); `npm run bench:ab` passes another checkout's. */
  cli?: string
  /** Node flags in addition to the base flags, e.g. --cpu-prof. */
  nodeFlags?: string[]
  /** The flags the process is started with (default SERVER_NODE_FLAGS, a service alone as the shebang starts it). */
  baseFlags?: string[]
}

export async function startServer(
  services: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  build: ServerBuild = {}
): Promise<RunningServer> {
  const logFile = path.join(env.QUARTET_DATA_DIR as string, 'server.log')
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  const out = fs.openSync(logFile, 'a')
  const child = spawn(
    process.execPath,
    [...(build.baseFlags ?? SERVER_NODE_FLAGS), ...(build.nodeFlags ?? []), build.cli ?? CLI, 'serve', ...services],
    {
      env,
      stdio: ['ignore', out, out]
    }
  )
  fs.closeSync(out)
  const deadline = Date.now() + timeoutMs
  let text = ''
  let urls = readyUrls(text)
  while (!urls) {
    if (child.exitCode !== null) throw new Error(`quartet serve ${services.join(' ')} exited (${child.exitCode}):\n${text}`)
    if (Date.now() > deadline) throw new Error(`quartet serve ${services.join(' ')} not ready:\n${text}`)
    await new Promise((r) => setTimeout(r, 100))
    text = fs.readFileSync(logFile, 'utf8')
    urls = readyUrls(text) ?? legacyReadyUrls(text, services)
  }
  return { urls, pid: child.pid as number, child, logFile, dataDir: env.QUARTET_DATA_DIR as string }
}

export function serverEnv(extra: Record<string, string>, dataDir: string): Record<string, string> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    QUARTET_DATA_DIR: dataDir,
    // Free ports for every service, so a bench never needs (or collides with) the defaults an
    // `npm start` in another terminal holds.
    ORCHESTRATOR_PORT: '0',
    TRIPS_PORT: '0',
    FEED_PORT: '0',
    FEED_CLIENT_PORT: '0',
    MARKETPLACE_PORT: '0',
    ...extra
  }
  delete env.DATABASE_URL
  delete env.REDIS_URL
  delete env.PORT
  // Output to a file is JSON lines by default; startServer reads them.
  delete env.QUARTET_LOG_FORMAT
  return env
}

export function contextFor(
  baseUrl: string,
  env: Record<string, string>,
  pid: number,
  referenceServers: Baseline[],
  cli = CLI
): BenchContext {
  return {
    baseUrl,
    env,
    serverRssMb: () => rssMb(pid),
    async replayServer(body) {
      const server = await startFixedBodyServer(body)
      referenceServers.push(server)
      return server.url
    },
    cli: (args) =>
      new Promise((resolve, reject) => {
        const run = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' })
        if (run.status === 0) resolve(run.stdout)
        else reject(new Error(`quartet ${args.join(' ')} failed (${run.status}): ${run.stderr}`))
      })
  }
}

/** User and system CPU milliseconds a process has used so far (/proc/<pid>/stat fields 14 and 15, in clock ticks); NaN once it is gone. */
export function cpuTimes(pid: number): { user: number; system: number } {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return { user: Number(fields[14 - 3]) * 10, system: Number(fields[15 - 3]) * 10 }
  } catch {
    return { user: NaN, system: NaN }
  }
}

/** User plus system CPU milliseconds a process has used so far. */
export function cpuMs(pid: number): number {
  const { user, system } = cpuTimes(pid)
  return user + system
}

/** A share of one core as a percentage (over 100 % when a process ran on both cores). */
export function cpuText(share: number): string {
  return Number.isFinite(share) ? `${Math.round(share * 100)} %` : 'n/a'
}

export function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a'
}

/** A row a stand-alone script (bench/scripts.ts) hands to `npm run bench`. */
export interface ScriptRow {
  service: string
  name: string
  result: CustomResult
}

/**
 * Hands a stand-alone script's rows to `npm run bench`, which starts it with BENCH_RESULT_FILE set;
 * run by hand, the script only prints them.
 */
export function reportRows(rows: ScriptRow[]): void {
  const file = process.env.BENCH_RESULT_FILE
  if (file) fs.writeFileSync(file, JSON.stringify(rows))
  for (const row of rows) console.log(`${row.name}: ${JSON.stringify(row.result.metrics)}`)
}
