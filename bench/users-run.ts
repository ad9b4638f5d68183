/**
 * The configuration users run (`npm start`: every service in one process, LOG_LEVEL=info, one JSON
 * line per request to a file), measured against the same service alone with logging off. The two
 * servers run side by side and are loaded in alternating rounds, each round next to a baseline
 * round: the VM drifts by tens of percent within seconds, so "kept" is compared round by round
 * instead of between measurements taken minutes apart.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  contextFor,
  cpuText,
  fmt,
  load,
  measureBaseline,
  median,
  rssMb,
  ROUND_SECONDS,
  serverEnv,
  SERVER_NODE_FLAGS,
  startServer,
  USERS_RUN_NODE_FLAGS,
  stop,
  type Baseline,
  type HttpRow,
  type MemoryRow,
  type RunningServer
} from './harness.js'
import type { HttpScenario, ServiceBench } from './types.js'

export const USERS_RUN = 'npm start'
const KEPT_ROUNDS = 5
const KEPT_TARGET = 0.85

export interface KeptRow {
  service: string
  name: string
  aloneRatio: number
  usersRatio: number
  /** Median over rounds of the users-run req/s as a share of the service-alone req/s of the same round. */
  kept: number
  aloneCpuUs: number
  usersCpuUs: number
}

/** One server and the scenario as set up on it (its own URL, token or key). */
interface Side {
  url: string
  pid: number
  scenario: HttpScenario
}

async function measureSide(side: Side) {
  const run = await load(side.url, side.scenario, ROUND_SECONDS, side.pid)
  const cpuUs = run.requests > 0 ? (run.serverCpuMs * 1000) / run.requests : NaN
  return { ...run, cpuUs }
}

/** Alternating rounds (baseline, then alone and users-run in turn) of one scenario on both servers. */
async function measurePair(service: string, alone: Side, users: Side, base: Baseline, baselines: number[]) {
  const scenario = users.scenario
  process.stdout.write(`  ${service}: ${scenario.name} … `)
  await load(alone.url, alone.scenario, 2) // warm-up of both: JIT, caches, connections
  await load(users.url, users.scenario, 2)
  const rounds = []
  for (let round = 0; round < KEPT_ROUNDS; round++) {
    const baseRps = (await measureBaseline(base)).rps
    baselines.push(baseRps)
    const first = round % 2 === 0 ? 'alone' : 'users'
    const a = first === 'alone' ? await measureSide(alone) : undefined
    const u = await measureSide(users)
    const aloneRun = a ?? (await measureSide(alone))
    rounds.push({ baseRps, alone: aloneRun, users: u })
  }
  const byRps = [...rounds].sort((x, y) => x.users.rps - y.users.rps)
  const middle = byRps[Math.floor(byRps.length / 2)]!.users
  const baselineRps = median(rounds.map((r) => r.baseRps))
  const usersRatio = median(rounds.map((r) => r.users.rps / r.baseRps))
  const non2xx = rounds.reduce((n, r) => n + r.users.non2xx, 0)
  const errors = rounds.reduce((n, r) => n + r.users.errors, 0)
  const aloneFailures = rounds.reduce((n, r) => n + r.alone.non2xx + r.alone.errors, 0)
  const target = scenario.target
  const met = target
    ? (target.minRatio === undefined || usersRatio >= target.minRatio) &&
      (target.maxP99Ms === undefined || middle.p99 < target.maxP99Ms) &&
      non2xx === 0
    : undefined
  const row: HttpRow = {
    service: `${service} (${USERS_RUN})`,
    name: scenario.name,
    rps: middle.rps,
    baselineRps,
    ratio: usersRatio,
    p50: middle.p50,
    p99: middle.p99,
    serverCpu: middle.serverCpu,
    loaderCpu: middle.loaderCpu,
    non2xx,
    errors,
    ...(target ? { target } : {}),
    ...(met !== undefined ? { met } : {})
  }
  const kept: KeptRow = {
    service,
    name: scenario.name,
    aloneRatio: median(rounds.map((r) => r.alone.rps / r.baseRps)),
    usersRatio,
    // Against failed requests of the service alone there is nothing to compare.
    kept: aloneFailures > 0 ? NaN : median(rounds.map((r) => r.users.rps / r.alone.rps)),
    aloneCpuUs: median(rounds.map((r) => r.alone.cpuUs)),
    usersCpuUs: median(rounds.map((r) => r.users.cpuUs))
  }
  if (aloneFailures > 0) process.stdout.write(`${aloneFailures} failed requests on the service alone! `)
  process.stdout.write(
    `kept ${fmt(kept.kept * 100)} % (alone ${fmt(kept.aloneRatio * 100, 1)} %, ${USERS_RUN} ${fmt(usersRatio * 100, 1)} %; ` +
      `CPU ${fmt(kept.aloneCpuUs)} vs ${fmt(kept.usersCpuUs)} µs/request), p99 ${middle.p99} ms, ` +
      `CPU server ${cpuText(middle.serverCpu)} / load generator ${cpuText(middle.loaderCpu)}\n`
  )
  return { row, kept }
}

/** Every targeted HTTP row of each service, as users run it and alone with logging off, side by side. */
export async function benchUsersRun(
  benches: ServiceBench[],
  base: Baseline,
  baselines: number[],
  http: HttpRow[],
  keptRows: KeptRow[],
  memory: MemoryRow[]
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-all-'))
  const extra: Record<string, string> = { LOG_LEVEL: 'info' }
  for (const bench of benches) Object.assign(extra, bench.env ?? {}, { [`${bench.service.toUpperCase()}_PORT`]: '0' })
  const env = serverEnv(extra, dataDir)
  const server = await startServer([], env, 60_000, { baseFlags: USERS_RUN_NODE_FLAGS })
  await new Promise((r) => setTimeout(r, 500))
  const idleMb = rssMb(server.pid)
  const referenceServers: Baseline[] = []
  try {
    for (const bench of benches) {
      const baseUrl = server.urls[bench.service]
      if (!baseUrl) continue
      const targeted = (await bench.setup(contextFor(baseUrl, env, server.pid, referenceServers))).filter(
        (s): s is HttpScenario => s.kind === 'http' && s.target !== undefined && s.url === undefined
      )
      if (targeted.length === 0) continue
      const alone = await startAlone(bench)
      try {
        const aloneScenarios = await bench.setup(
          contextFor(alone.server.urls[bench.service]!, alone.env, alone.server.pid, referenceServers)
        )
        for (const scenario of targeted) {
          const twin = aloneScenarios.find((s): s is HttpScenario => s.kind === 'http' && s.name === scenario.name)
          if (!twin) continue
          const { row, kept } = await measurePair(
            bench.service,
            { url: `${alone.server.urls[bench.service]}${twin.path}`, pid: alone.server.pid, scenario: twin },
            { url: `${baseUrl}${scenario.path}`, pid: server.pid, scenario },
            base,
            baselines
          )
          http.push(row)
          keptRows.push(kept)
        }
      } finally {
        await stop(alone.server.child)
        fs.rmSync(alone.dataDir, { recursive: true, force: true })
      }
    }
  } finally {
    memory.push({ service: `(all services, ${USERS_RUN})`, idleMb, peakMb: rssMb(server.pid, 'VmHWM') })
    await stop(server.child)
    for (const reference of referenceServers) await stop(reference.child)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

async function startAlone(bench: ServiceBench): Promise<{ server: RunningServer; env: Record<string, string>; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quartet-bench-${bench.service}-alone-`))
  const env = serverEnv({ LOG_LEVEL: 'warn', [`${bench.service.toUpperCase()}_PORT`]: '0', ...(bench.env ?? {}) }, dataDir)
  const server = await startServer([bench.service], env)
  if (!server.urls[bench.service]) throw new Error(`no URL for ${bench.service} in ${server.logFile}`)
  return { server, env, dataDir }
}

export function usersRunSection(keptRows: KeptRow[]): string[] {
  if (keptRows.length === 0) return []
  return [
    `## The configuration users run (\`${USERS_RUN}\`: every service in one process, LOG_LEVEL=info)`,
    '',
    `Node flags as each is started: \`${USERS_RUN_NODE_FLAGS.join(' ')}\` (${USERS_RUN}), ` +
      `\`${SERVER_NODE_FLAGS.join(' ')}\` (a service alone, the \`quartet\` shebang).`,
    `Both servers run side by side and are loaded in ${KEPT_ROUNDS} alternating rounds of ${ROUND_SECONDS} s, each after a baseline round.`,
    '"Kept" is the median over rounds of the users-run req/s as a share of the service-alone req/s (logging off) of the same',
    `round; CPU is the server process's user + system time per request. Target: kept ≥ ${KEPT_TARGET * 100} %.`,
    '',
    `| Service | Scenario | Alone, LOG_LEVEL=warn | ${USERS_RUN}, LOG_LEVEL=info | CPU µs/request alone → ${USERS_RUN} | Kept | Met |`,
    '|---|---|---:|---:|---:|---:|---|',
    ...keptRows.map(
      (k) =>
        `| ${k.service} | ${k.name} | ${fmt(k.aloneRatio * 100, 1)} % | ${fmt(k.usersRatio * 100, 1)} % | ` +
        `${fmt(k.aloneCpuUs)} → ${fmt(k.usersCpuUs)} | ${fmt(k.kept * 100, 0)} % | ` +
        `${k.kept >= KEPT_TARGET ? 'yes' : Number.isNaN(k.kept) ? 'n/a (failed requests alone)' : '**no**'} |`
    ),
    ''
  ]
}
