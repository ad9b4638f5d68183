/**
 * npm run bench [-- service…]
 *
 * Measures a raw node:http JSON hello-world baseline and then each service's hot paths with
 * autocannon, in the same run on the same machine, and writes docs/benchmarks.md with every
 * figure also as a ratio of the baseline. Each service runs as the real built CLI
 * (`node dist/cli/main.js serve <service>`) on a fresh SQLite data dir.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import type { BenchContext, CustomResult, HttpScenario, ServiceBench } from './types.js'

const root = path.resolve(import.meta.dirname, '..')
const DURATION = Number(process.env.BENCH_DURATION ?? 8)
const CONNECTIONS = 50
const ROUNDS = 3
const ROUND_SECONDS = Math.max(2, Math.round(DURATION / 2))
const CLI = path.join(root, 'dist', 'cli', 'main.js')
// The server runs with the V8 flags its shebang and `npm start` give it (docs/decisions.md).
const SERVER_NODE_FLAGS = ['--max-semi-space-size=8']

interface HttpRow { service: string; name: string; rps: number; baselineRps: number; ratio: number; p50: number; p99: number; non2xx: number; errors: number; target?: HttpScenario['target']; met?: boolean }
interface CustomRow { service: string; name: string; result: CustomResult }
interface MemoryRow { service: string; idleMb: number; peakMb: number }

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)
    return match ? Number(match[1]) / 1024 : NaN
  } catch {
    return NaN
  }
}

async function load(url: string, scenario: Pick<HttpScenario, 'method' | 'headers' | 'body' | 'connections'>, duration = DURATION) {
  const result = await autocannon({
    url,
    method: scenario.method,
    headers: scenario.headers ?? {},
    ...(scenario.body !== undefined ? { body: scenario.body } : {}),
    connections: scenario.connections ?? CONNECTIONS,
    duration
  })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts }
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
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

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

interface Baseline {
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
async function startFixedBodyServer(body: Buffer): Promise<Baseline> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-body-'))
  const file = path.join(dir, 'body')
  fs.writeFileSync(file, body)
  const code = `
    const http = require('node:http')
    const body = require('node:fs').readFileSync(process.argv[1])
    http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }); res.end(body) })
      .listen(0, '127.0.0.1', function () { console.log('listening ' + this.address().port) })`
  const child = spawn(process.execPath, ['-e', code, file], { stdio: ['ignore', 'pipe', 'pipe'] })
  // The server has read the file once it listens.
  const out = await waitForLine(child, /listening \d+/).finally(() => fs.rmSync(dir, { recursive: true, force: true }))
  const port = /listening (\d+)/.exec(out)?.[1]
  const url = `http://127.0.0.1:${port}/`
  const idleMb = rssMb(child.pid as number)
  await load(url, { method: 'GET' }, 2) // warm-up
  return { url, pid: child.pid as number, child, idleMb }
}

/** Starts the raw node:http JSON hello-world the service rows are compared with. */
function startBaseline(): Promise<Baseline> {
  return startFixedBodyServer(Buffer.from(JSON.stringify({ hello: 'world' })))
}

/** One baseline round, taken right before the scenario round it is compared with. */
async function measureBaseline(base: Baseline) {
  return load(base.url, { method: 'GET' }, ROUND_SECONDS)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

interface RunningServer { urls: Record<string, string>; pid: number; child: ChildProcess; logFile: string; dataDir: string }

/** The URL of each service in the `ready` record, once the log holds it (stderr lines in the same file are not JSON and are skipped). */
function readyUrls(log: string): Record<string, string> | undefined {
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

/**
 * Starts the built CLI (`quartet serve <services…>`) with its output going to a file — as a log
 * collector would take it: JSON lines — and resolves each service's URL from its `ready` record.
 */
async function startServer(services: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<RunningServer> {
  const logFile = path.join(env.QUARTET_DATA_DIR as string, 'server.log')
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  const out = fs.openSync(logFile, 'a')
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, CLI, 'serve', ...services], { env, stdio: ['ignore', out, out] })
  fs.closeSync(out)
  const deadline = Date.now() + timeoutMs
  let text = ''
  let urls = readyUrls(text)
  while (!urls) {
    if (child.exitCode !== null) throw new Error(`quartet serve ${services.join(' ')} exited (${child.exitCode}):\n${text}`)
    if (Date.now() > deadline) throw new Error(`quartet serve ${services.join(' ')} not ready:\n${text}`)
    await new Promise((r) => setTimeout(r, 100))
    text = fs.readFileSync(logFile, 'utf8')
    urls = readyUrls(text)
  }
  return { urls, pid: child.pid as number, child, logFile, dataDir: env.QUARTET_DATA_DIR as string }
}

function serverEnv(extra: Record<string, string>, dataDir: string): Record<string, string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), QUARTET_DATA_DIR: dataDir, FEED_CLIENT_PORT: '0', ...extra }
  delete env.DATABASE_URL
  delete env.REDIS_URL
  // Output to a file is JSON lines by default; startServer reads them.
  delete env.QUARTET_LOG_FORMAT
  return env
}

function contextFor(baseUrl: string, env: Record<string, string>, pid: number, referenceServers: Baseline[]): BenchContext {
  return {
    baseUrl,
    env,
    serverRssMb: () => rssMb(pid),
    async replayServer(body) {
      const server = await startFixedBodyServer(body)
      referenceServers.push(server)
      return server.url
    },
    cli: (args) => new Promise((resolve, reject) => {
      const run = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' })
      if (run.status === 0) resolve(run.stdout)
      else reject(new Error(`quartet ${args.join(' ')} failed (${run.status}): ${run.stderr}`))
    })
  }
}

/** Interleaved baseline/scenario rounds (this shared VM drifts by tens of percent within seconds); medians. */
async function measureHttp(label: string, scenario: HttpScenario, url: string, base: Baseline, baselines: number[]): Promise<HttpRow> {
  process.stdout.write(`  ${label}: ${scenario.name} … `)
  await load(url, scenario, 2) // warm-up: JIT, caches, connections
  const rounds: { base: number; run: Awaited<ReturnType<typeof load>> }[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const baseRound = await measureBaseline(base)
    rounds.push({ base: baseRound.rps, run: await load(url, scenario, ROUND_SECONDS) })
  }
  const baselineRps = median(rounds.map((r) => r.base))
  baselines.push(...rounds.map((r) => r.base))
  const byRps = [...rounds].sort((a, b) => a.run.rps - b.run.rps)
  const middle = byRps[Math.floor(byRps.length / 2)]?.run as Awaited<ReturnType<typeof load>>
  const m = { ...middle, non2xx: rounds.reduce((n, r) => n + r.run.non2xx, 0), errors: rounds.reduce((n, r) => n + r.run.errors, 0) }
  const ratio = m.rps / baselineRps
  const target = scenario.target
  const met = target ? (target.minRatio === undefined || ratio >= target.minRatio) && (target.maxP99Ms === undefined || m.p99 < target.maxP99Ms) && m.non2xx === 0 : undefined
  process.stdout.write(`${Math.round(m.rps)} req/s (${(ratio * 100).toFixed(1)} % of ${Math.round(baselineRps)}), p99 ${m.p99} ms${m.non2xx ? `, ${m.non2xx} non-2xx!` : ''}\n`)
  return { service: label, name: scenario.name, ...m, baselineRps, ratio, ...(target ? { target } : {}), ...(met !== undefined ? { met } : {}) }
}

async function benchService(bench: ServiceBench, base: Baseline, baselines: number[], http: HttpRow[], custom: CustomRow[], memory: MemoryRow[]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quartet-bench-${bench.service}-`))
  const env = serverEnv({ LOG_LEVEL: 'warn', [`${bench.service.toUpperCase()}_PORT`]: '0', ...(bench.env ?? {}) }, dataDir)
  const server = await startServer([bench.service], env)
  const baseUrl = server.urls[bench.service]
  if (!baseUrl) throw new Error(`no URL for ${bench.service} in ${server.logFile}`)
  await new Promise((r) => setTimeout(r, 500))
  const idleMb = rssMb(server.pid)
  const referenceServers: Baseline[] = []
  const context = contextFor(baseUrl, env, server.pid, referenceServers)
  try {
    for (const scenario of await bench.setup(context)) {
      if (scenario.kind === 'http') {
        http.push(await measureHttp(bench.service, scenario, scenario.url ?? `${baseUrl}${scenario.path}`, base, baselines))
      } else {
        process.stdout.write(`  ${bench.service}: ${scenario.name} … `)
        // A failing measurement is reported as such; it does not cost the rest of the run.
        const result: CustomResult = await scenario.run(context).catch((error: unknown) => ({ metrics: { error: String(error).slice(0, 200) }, pass: false }))
        custom.push({ service: bench.service, name: scenario.name, result })
        process.stdout.write(`${JSON.stringify(result.metrics)}\n`)
      }
    }
  } finally {
    memory.push({ service: bench.service, idleMb, peakMb: rssMb(server.pid, 'VmHWM') })
    await stop(server.child)
    for (const reference of referenceServers) await stop(reference.child)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export const USERS_RUN = 'npm start'

/**
 * The configuration users run: every service in one process (`quartet serve`), default log
 * level (one JSON line per request to a file), measured on each service's targeted rows.
 */
async function benchUsersRun(benches: ServiceBench[], base: Baseline, baselines: number[], http: HttpRow[], memory: MemoryRow[]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-all-'))
  const extra: Record<string, string> = { LOG_LEVEL: 'info' }
  for (const bench of benches) Object.assign(extra, bench.env ?? {}, { [`${bench.service.toUpperCase()}_PORT`]: '0' })
  const env = serverEnv(extra, dataDir)
  const server = await startServer([], env)
  await new Promise((r) => setTimeout(r, 500))
  const idleMb = rssMb(server.pid)
  const referenceServers: Baseline[] = []
  try {
    for (const bench of benches) {
      const baseUrl = server.urls[bench.service]
      if (!baseUrl) continue
      const scenarios = await bench.setup(contextFor(baseUrl, env, server.pid, referenceServers))
      for (const scenario of scenarios) {
        if (scenario.kind !== 'http' || !scenario.target || scenario.url) continue
        http.push(await measureHttp(`${bench.service} (${USERS_RUN})`, scenario, `${baseUrl}${scenario.path}`, base, baselines))
      }
    }
  } finally {
    memory.push({ service: `(all services, ${USERS_RUN})`, idleMb, peakMb: rssMb(server.pid, 'VmHWM') })
    await stop(server.child)
    for (const reference of referenceServers) await stop(reference.child)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Each targeted row as users run it, against the same row of the service alone with logging off. */
function usersRunSection(http: HttpRow[]): string[] {
  const pairs = http.filter((r) => r.service.endsWith(`(${USERS_RUN})`)).flatMap((run) => {
    const alone = http.find((r) => r.name === run.name && r.service === run.service.replace(` (${USERS_RUN})`, ''))
    return alone ? [{ run, alone }] : []
  })
  if (pairs.length === 0) return []
  return [
    `## The configuration users run (\`${USERS_RUN}\`: every service in one process, LOG_LEVEL=info)`,
    '',
    'Ratios are each against their own adjacent baseline rounds; "kept" is the users-run ratio as a share of the service-alone ratio (logging off). Target: ≥ 85 %.',
    '',
    '| Service | Scenario | Alone, LOG_LEVEL=warn | npm start, LOG_LEVEL=info | Kept | Met |',
    '|---|---|---:|---:|---:|---|',
    ...pairs.map(({ run, alone }) => {
      const kept = run.ratio / alone.ratio
      return `| ${alone.service} | ${run.name} | ${fmt(alone.ratio * 100, 1)} % | ${fmt(run.ratio * 100, 1)} % | ${fmt(kept * 100, 0)} % | ${kept >= 0.85 ? 'yes' : '**no**'} |`
    }),
    ''
  ]
}

function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a'
}

function targetText(target: HttpScenario['target']): string {
  if (!target) return '—'
  const parts: string[] = []
  if (target.minRatio !== undefined) parts.push(`≥ ${Math.round(target.minRatio * 100)} %`)
  if (target.maxP99Ms !== undefined) parts.push(`p99 < ${target.maxP99Ms} ms`)
  return parts.join(', ')
}

async function main() {
  const wanted = process.argv.slice(2)
  const scenarioDir = path.join(root, 'bench', 'scenarios')
  const benches: ServiceBench[] = []
  for (const file of fs.readdirSync(scenarioDir).filter((f) => f.endsWith('.ts')).sort()) {
    const mod = (await import(path.join(scenarioDir, file))) as { bench?: ServiceBench }
    if (mod.bench && (wanted.length === 0 || wanted.includes(mod.bench.service))) benches.push(mod.bench)
  }
  if (benches.length === 0) throw new Error(`no benchmark matches ${wanted.join(', ') || '(all)'}`)

  if (process.env.BENCH_SKIP_BUILD !== '1') {
    console.log('building dist/ …')
    const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
    if (build.status !== 0) process.exit(build.status ?? 1)
  }

  console.log(`baseline (raw node:http, ${CONNECTIONS} connections, ${DURATION} s) …`)
  const baseServer = await startBaseline()
  const first = await measureBaseline(baseServer)
  console.log(`  ${Math.round(first.rps)} req/s, p99 ${first.p99} ms`)
  const baselines: number[] = [first.rps]
  const http: HttpRow[] = []
  const custom: CustomRow[] = []
  const memory: MemoryRow[] = []
  const baselinePeak = { mb: NaN }
  try {
    for (const bench of benches) await benchService(bench, baseServer, baselines, http, custom, memory)
    if (process.env.BENCH_USERS_RUN !== '0') {
      console.log(`${USERS_RUN}: all services in one process, LOG_LEVEL=info …`)
      await benchUsersRun(benches, baseServer, baselines, http, memory)
    }
  } finally {
    baselinePeak.mb = rssMb(baseServer.pid, 'VmHWM')
    await stop(baseServer.child)
  }
  const base = { ...first, idleMb: baseServer.idleMb, peakMb: baselinePeak.mb }
  const sorted = [...baselines].sort((a, b) => a - b)
  const spread = `${fmt(sorted[0] ?? NaN)}–${fmt(sorted[sorted.length - 1] ?? NaN)}`

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU'
  const lines = [
    '# Benchmarks',
    '',
    `Produced by \`npm run bench${wanted.length ? ` -- ${wanted.join(' ')}` : ''}\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
    `Each row is autocannon against the built CLI (\`quartet serve <service>\`, embedded SQLite), ${CONNECTIONS} connections`,
    `unless noted, after a 2 s warm-up; the load generator runs on the same 2-core machine, as it does for the baseline.`,
    `This shared VM drifts by tens of percent within seconds (baseline rounds in this run: ${spread} req/s), so each row`,
    `interleaves ${ROUNDS} rounds of ${ROUND_SECONDS} s: raw \`node:http\` JSON hello-world baseline, then the scenario. **req/s**, p50 and`,
    'p99 are the median scenario round, **Baseline req/s** the median of its adjacent baseline rounds, and **Ratio** their quotient.',
    '',
    '## HTTP',
    '',
    '| Service | Scenario | req/s | Baseline req/s | Ratio | p50 ms | p99 ms | non-2xx | Target | Met |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|---|',
    `| baseline | raw node:http JSON hello-world (first run) | ${fmt(base.rps)} | ${fmt(base.rps)} | 100 % | ${base.p50} | ${base.p99} | 0 | — | — |`,
    ...http.map((r) => `| ${r.service} | ${r.name} | ${fmt(r.rps)} | ${fmt(r.baselineRps)} | ${fmt(r.ratio * 100, 1)} % | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} | ${targetText(r.target)} | ${r.met === undefined ? '—' : r.met ? 'yes' : '**no**'} |`),
    '',
    ...usersRunSection(http),
    '## Memory (server process RSS)',
    '',
    '| Process | Idle MB | Peak MB (whole run) |',
    '|---|---:|---:|',
    `| baseline | ${fmt(base.idleMb, 1)} | ${fmt(base.peakMb, 1)} |`,
    ...memory.map((m) => `| quartet serve ${m.service} | ${fmt(m.idleMb, 1)} | ${fmt(m.peakMb, 1)} |`)
  ]
  if (custom.length > 0) {
    lines.push('', '## Other measurements', '', '| Service | Scenario | Result | Target | Met |', '|---|---|---|---|---|')
    for (const c of custom) {
      const metrics = Object.entries(c.result.metrics).map(([k, v]) => `${k}: ${typeof v === 'number' ? fmt(v, v < 100 ? 1 : 0) : v}`).join(', ')
      lines.push(`| ${c.service} | ${c.name} | ${metrics} | ${c.result.targetText ?? '—'} | ${c.result.pass === undefined ? '—' : c.result.pass ? 'yes' : '**no**'} |`)
    }
  }
  lines.push('', 'Where a target is missed, [performance.md](performance.md) explains what was measured and why.', '')
  const output = lines.join('\n')
  if (wanted.length === 0) {
    fs.writeFileSync(path.join(root, 'docs', 'benchmarks.md'), output)
    console.log('wrote docs/benchmarks.md')
  } else {
    const partial = path.join(root, 'bench', 'results', `${wanted.join('-')}.md`)
    fs.mkdirSync(path.dirname(partial), { recursive: true })
    fs.writeFileSync(partial, output)
    console.log(`wrote ${path.relative(root, partial)} (docs/benchmarks.md is written only by a full run)`)
  }
  console.log(output)
}

await main()
