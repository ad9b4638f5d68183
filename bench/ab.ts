/**
 * A/B of one route on two builds: `npm run bench:ab -- --base <other checkout> --service trips --route POST`.
 *
 * Both builds serve the service side by side (each on its own embedded database, set up by the
 * scenario of `bench/scenarios/<service>.ts`); rounds at a fixed request rate alternate between
 * them in ABBA order, and each round reports the server's CPU time per request (user + system,
 * from /proc). A fixed rate keeps the work per second equal, so the CPU per request compares the
 * code, not the load generator; alternating cancels the drift of a shared host and the cost of
 * going second. Ratios between separate `npm run bench` runs move with the host by ±15 %; this
 * tells a 3–5 % difference apart (docs/performance.md, "Comparing two builds").
 * `--rate max` loads each round at saturation instead, as a row of `npm run bench` does (the
 * scenario's connections, 50 by default), and reports req/s and p50 / p99 beside the CPU.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { CLI, contextFor, load, median, serverEnv, startServer, stop, type Baseline, type RunningServer } from './harness.js'
import type { HttpScenario, ServiceBench } from './types.js'

const { values: options } = parseArgs({
  options: {
    base: { type: 'string' },
    service: { type: 'string', default: 'trips' },
    route: { type: 'string', default: '' },
    rate: { type: 'string', default: '2500' },
    rounds: { type: 'string', default: '24' },
    seconds: { type: 'string', default: '4' },
    serve: { type: 'string', default: 'alone' },
    'base-serve': { type: 'string' },
    'this-serve': { type: 'string' },
    'log-level': { type: 'string', default: 'warn' },
    'base-log-level': { type: 'string' },
    'this-log-level': { type: 'string' },
    'base-flags': { type: 'string', default: '' },
    'this-flags': { type: 'string', default: '' },
    'cpu-prof': { type: 'string' }
  }
})
if (!options.base) {
  console.error(
    'usage: npm run bench:ab -- --base <checkout with a built dist/> [--service trips] [--route "POST"] [--rate 2500|max] [--rounds 24] ' +
      '[--seconds 4] [--serve alone|all|<service,…>] [--log-level warn] (each also as --base-… / --this-…) ' +
      '[--base-flags="<node flags>"] [--this-flags="<node flags>"] [--cpu-prof <dir>]'
  )
  process.exit(2)
}
const service = options.service
const saturate = options.rate === 'max'
const rate = Number(options.rate)
if (!saturate && !(rate > 0)) throw new Error(`--rate must be a positive number of requests per second, or max (got ${options.rate})`)
const builds = { base: path.resolve(options.base, 'dist', 'cli', 'main.js'), this: CLI }
// `--serve all` runs every service in the one process, as `npm start` does; with `--base .` the
// per-contender settings compare configurations (flags, log level, alone vs all) of one build.
type Name = 'base' | 'this'
const servicesOf = (name: Name): string[] => {
  const serve = options[`${name}-serve`] ?? options.serve
  return serve === 'all' ? [] : serve === 'alone' ? [service] : serve.split(',')
}
const logLevelOf = (name: Name) => options[`${name}-log-level`] ?? options['log-level']
const flagsOf = (name: Name) => options[`${name}-flags`].split(' ').filter((f) => f !== '')
// Each contender loads the scenario module afresh (its own project directory and seeded state): two
// orchestrators on one project would share its runtime files (API token, handshake).
const loadBench = async (name: string) => ((await import(`./scenarios/${service}.js?contender=${name}`)) as { bench: ServiceBench }).bench

interface Contender {
  name: string
  /** Raw node:http servers a scenario's setup started (they would keep this process alive). */
  referenceServers: Baseline[]
  server: RunningServer
  url: string
  scenario: HttpScenario
}

async function start(name: Name, cli: string): Promise<Contender> {
  if (!fs.existsSync(cli)) throw new Error(`${cli} does not exist: build that checkout first (npm ci && npm run build)`)
  const bench = await loadBench(name)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quartet-ab-${name}-`))
  const env = serverEnv({ LOG_LEVEL: logLevelOf(name), [`${service.toUpperCase()}_PORT`]: '0', ...(bench.env ?? {}) }, dataDir)
  const profile = options['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options['cpu-prof'], name)}`] : []
  const server = await startServer(servicesOf(name), env, 60_000, { cli, nodeFlags: [...flagsOf(name), ...profile] })
  const url = server.urls[service]!
  const referenceServers: Baseline[] = []
  const scenarios = (await bench.setup(contextFor(url, env, server.pid, referenceServers, cli))).filter(
    (s): s is HttpScenario => s.kind === 'http' && s.url === undefined && s.name.includes(options.route)
  )
  if (scenarios.length === 0) throw new Error(`no HTTP scenario of ${service} has "${options.route}" in its name`)
  return { name, referenceServers, server, url, scenario: scenarios[0] as HttpScenario }
}

/** One round: at saturation with the scenario's connections (`--rate max`), else at the fixed rate over 10 connections. */
async function round(contender: Contender, seconds: number) {
  const { scenario } = contender
  const paced = saturate ? scenario : { ...scenario, connections: 10 }
  const result = await load(contender.url + scenario.path, paced, seconds, contender.server.pid, saturate ? undefined : rate)
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${contender.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return { ...result, cpuPerRequest: (result.serverCpuMs * 1000) / result.requests }
}

const contenders = [await start('base', builds.base), await start('this', builds.this)]
try {
  const pace = saturate ? 'saturation' : `${rate} req/s`
  console.log(`${contenders[0]!.scenario.name} at ${pace}, ${options.rounds} × 2 rounds of ${options.seconds} s`)
  for (const contender of contenders) await round(contender, 5) // warm-up (JIT, caches)
  const cells: Record<string, number[]> = { 'base first': [], 'base second': [], 'this first': [], 'this second': [] }
  const ratios: number[] = []
  const saturated: Record<Name, { rps: number[]; p50: number[]; p99: number[] }> = {
    base: { rps: [], p50: [], p99: [] },
    this: { rps: [], p50: [], p99: [] }
  }
  for (let i = 0; i < Number(options.rounds); i++) {
    const order = i % 2 === 0 ? contenders : [...contenders].reverse()
    const cpu: Record<string, number> = {}
    for (const [position, contender] of order.entries()) {
      const result = await round(contender, Number(options.seconds))
      cpu[contender.name] = result.cpuPerRequest
      cells[`${contender.name} ${position === 0 ? 'first' : 'second'}`]!.push(result.cpuPerRequest)
      const measured = saturated[contender.name as Name]
      measured.rps.push(result.rps)
      measured.p50.push(result.p50)
      measured.p99.push(result.p99)
    }
    ratios.push(cpu.this! / cpu.base!)
    console.log(`round ${i + 1}: base ${cpu.base!.toFixed(1)} µs/request, this ${cpu.this!.toFixed(1)} (${order[0]!.name} first)`)
  }
  const geomean = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length)
  console.log(
    Object.entries(cells)
      .map(([cell, values]) => `${cell}: median ${median(values).toFixed(1)} µs`)
      .join(' | ')
  )
  if (saturate) {
    for (const name of ['base', 'this'] as const) {
      const measured = saturated[name]
      console.log(
        `${name}: median ${Math.round(median(measured.rps))} req/s (rounds ${measured.rps.map(Math.round).join(', ')}), ` +
          `p50 ${median(measured.p50)} ms, p99 ${median(measured.p99)} ms`
      )
    }
  }
  console.log(`this / base, CPU per request: median of pairs ${median(ratios).toFixed(3)}, geometric mean ${geomean.toFixed(3)}`)
} finally {
  for (const { server, referenceServers } of contenders) {
    await stop(server.child)
    for (const reference of referenceServers) await stop(reference.child)
  }
}
