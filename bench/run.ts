/**
 * npm run bench [-- --only name,name…]   (names: services and bench/scripts.ts ids; bare names work too)
 *
 * Measures a raw node:http JSON hello-world baseline and then each service's hot paths with
 * autocannon, in the same run on the same machine, and writes docs/benchmarks.md with every
 * figure also as a ratio of the baseline. Each service runs as the real built CLI
 * (`node dist/cli/main.js serve <service>`) on a fresh SQLite data dir. Then the stand-alone
 * scripts of bench/scripts.ts (MCP start-up, dashboards, terminal, …), one section each.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  CONNECTIONS,
  DURATION,
  ROUND_SECONDS,
  ROUNDS,
  contextFor,
  cpuText,
  fmt,
  load,
  measureBaseline,
  median,
  root,
  rssMb,
  serverEnv,
  startBaseline,
  startServer,
  stop,
  type Baseline,
  type CustomRow,
  type HttpRow,
  type MemoryRow
} from './harness.js'
import { SCRIPTS, runScript, scriptSections, type ScriptOutcome } from './scripts.js'
import type { CustomResult, HttpScenario, ServiceBench } from './types.js'
import { USERS_RUN, benchUsersRun, usersRunSection, type KeptRow } from './users-run.js'

/** Interleaved baseline/scenario rounds (this shared VM drifts by tens of percent within seconds); medians. */
async function measureHttp(
  label: string,
  scenario: HttpScenario,
  server: { url: string; pid: number | undefined },
  base: Baseline,
  baselines: number[]
): Promise<HttpRow> {
  const url = server.url
  process.stdout.write(`  ${label}: ${scenario.name} … `)
  await load(url, scenario, 2) // warm-up: JIT, caches, connections
  const rounds: { base: number; run: Awaited<ReturnType<typeof load>> }[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const baseRound = await measureBaseline(base)
    rounds.push({ base: baseRound.rps, run: await load(url, scenario, ROUND_SECONDS, server.pid) })
  }
  const baselineRps = median(rounds.map((r) => r.base))
  baselines.push(...rounds.map((r) => r.base))
  const byRps = [...rounds].sort((a, b) => a.run.rps - b.run.rps)
  const middle = byRps[Math.floor(byRps.length / 2)]?.run as Awaited<ReturnType<typeof load>>
  const m = { ...middle, non2xx: rounds.reduce((n, r) => n + r.run.non2xx, 0), errors: rounds.reduce((n, r) => n + r.run.errors, 0) }
  const ratio = m.rps / baselineRps
  const target = scenario.target
  const met = target
    ? (target.minRatio === undefined || ratio >= target.minRatio) &&
      (target.maxP99Ms === undefined || m.p99 < target.maxP99Ms) &&
      m.non2xx === 0
    : undefined
  process.stdout.write(
    `${Math.round(m.rps)} req/s (${(ratio * 100).toFixed(1)} % of ${Math.round(baselineRps)}), ` +
      `p99 ${m.p99} ms, CPU server ${cpuText(m.serverCpu)} / load generator ${cpuText(m.loaderCpu)}` +
      `${m.non2xx ? `, ${m.non2xx} non-2xx!` : ''}\n`
  )
  return {
    service: label,
    name: scenario.name,
    ...m,
    baselineRps,
    ratio,
    ...(target ? { target } : {}),
    ...(met !== undefined ? { met } : {})
  }
}

async function benchService(
  bench: ServiceBench,
  base: Baseline,
  baselines: number[],
  http: HttpRow[],
  custom: CustomRow[],
  memory: MemoryRow[]
) {
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
        // A replayed response (a ceiling) is served by one of the reference servers, not by the service.
        const served = scenario.url
          ? { url: scenario.url, pid: referenceServers.find((r) => scenario.url!.startsWith(r.url))?.pid }
          : { url: `${baseUrl}${scenario.path}`, pid: server.pid }
        http.push(await measureHttp(bench.service, scenario, served, base, baselines))
      } else {
        process.stdout.write(`  ${bench.service}: ${scenario.name} … `)
        // A failing measurement is reported as such; it does not cost the rest of the run.
        const result: CustomResult = await scenario
          .run(context)
          .catch((error: unknown) => ({ metrics: { error: String(error).slice(0, 200) }, pass: false }))
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

function targetText(target: HttpScenario['target']): string {
  if (!target) return '—'
  const parts: string[] = []
  if (target.minRatio !== undefined) parts.push(`≥ ${Math.round(target.minRatio * 100)} %`)
  if (target.maxP99Ms !== undefined) parts.push(`p99 < ${target.maxP99Ms} ms`)
  return parts.join(', ')
}

/** The baseline, every service's HTTP rows, the users-run table, memory and the services' custom rows. */
async function httpSections(benches: ServiceBench[]): Promise<string[]> {
  console.log(`baseline (raw node:http, ${CONNECTIONS} connections, ${DURATION} s) …`)
  const baseServer = await startBaseline()
  const first = await measureBaseline(baseServer)
  console.log(`  ${Math.round(first.rps)} req/s, p99 ${first.p99} ms`)
  const baselines: number[] = [first.rps]
  const http: HttpRow[] = []
  const custom: CustomRow[] = []
  const memory: MemoryRow[] = []
  const kept: KeptRow[] = []
  const baselinePeak = { mb: NaN }
  try {
    for (const bench of benches) await benchService(bench, baseServer, baselines, http, custom, memory)
    if (process.env.BENCH_USERS_RUN !== '0') {
      console.log(`${USERS_RUN}: all services in one process, LOG_LEVEL=info …`)
      await benchUsersRun(benches, baseServer, baselines, http, kept, memory)
    }
  } finally {
    baselinePeak.mb = rssMb(baseServer.pid, 'VmHWM')
    await stop(baseServer.child)
  }
  const base = { ...first, idleMb: baseServer.idleMb, peakMb: baselinePeak.mb }
  const sorted = [...baselines].sort((a, b) => a - b)
  const spread = `${fmt(sorted[0] ?? NaN)}–${fmt(sorted[sorted.length - 1] ?? NaN)}`

  const lines = [
    `Each row is autocannon against the built CLI (\`quartet serve <service>\`, embedded SQLite), ${CONNECTIONS} connections`,
    `unless noted, after a 2 s warm-up; the load generator runs on the same 2-core machine, as it does for the baseline.`,
    `This shared VM drifts by tens of percent within seconds (baseline rounds in this run: ${spread} req/s), so each row`,
    `interleaves ${ROUNDS} rounds of ${ROUND_SECONDS} s: raw \`node:http\` JSON hello-world baseline, ` +
      'then the scenario. **req/s**, p50 and',
    'p99 are the median scenario round, **Baseline req/s** the median of its adjacent baseline rounds, and **Ratio** their quotient.',
    '**CPU server / load gen.** is what the server process and the load generator (autocannon in the bench process,',
    'which decodes every response body into a string) used in that round, as shares of one core: near 100 % for the',
    'server, the server bounds the row; near 100 % for the load generator, it does (large answers, and the baseline).',
    '',
    '## HTTP',
    '',
    '| Service | Scenario | req/s | Baseline req/s | Ratio | p50 ms | p99 ms | non-2xx | CPU server / load gen. | Target | Met |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
    `| baseline | raw node:http JSON hello-world (first run) | ${fmt(base.rps)} | ${fmt(base.rps)} | 100 % | ` +
      `${base.p50} | ${base.p99} | 0 | ${cpuText(base.serverCpu)} / ${cpuText(base.loaderCpu)} | — | — |`,
    ...http.map(
      (r) =>
        `| ${r.service} | ${r.name} | ${fmt(r.rps)} | ${fmt(r.baselineRps)} | ${fmt(r.ratio * 100, 1)} % | ${r.p50} | ${r.p99} | ` +
        `${r.non2xx + r.errors} | ${cpuText(r.serverCpu)} / ${cpuText(r.loaderCpu)} | ` +
        `${targetText(r.target)} | ${r.met === undefined ? '—' : r.met ? 'yes' : '**no**'} |`
    ),
    '',
    ...usersRunSection(kept),
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
      const metrics = Object.entries(c.result.metrics)
        .map(([k, v]) => `${k}: ${typeof v === 'number' ? fmt(v, v < 100 ? 1 : 0) : v}`)
        .join(', ')
      lines.push(
        `| ${c.service} | ${c.name} | ${metrics} | ${c.result.targetText ?? '—'} | ` +
          `${c.result.pass === undefined ? '—' : c.result.pass ? 'yes' : '**no**'} |`
      )
    }
  }
  return lines
}

/** `--only a,b` (or `--only=a,b`) and bare names, all together: the services and scripts to run; empty = everything. */
function parseSelection(argv: string[]): string[] {
  const names: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const value = arg === '--only' ? argv[++i] : arg.startsWith('--only=') ? arg.slice('--only='.length) : arg
    if (value === undefined) throw new Error('--only needs a list, e.g. --only orchestrator,dashboard')
    names.push(...value.split(',').filter((name) => name !== ''))
  }
  return names
}

async function main() {
  const wanted = parseSelection(process.argv.slice(2))
  const scenarioDir = path.join(root, 'bench', 'scenarios')
  const all: ServiceBench[] = []
  for (const file of fs
    .readdirSync(scenarioDir)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const mod = (await import(path.join(scenarioDir, file))) as { bench?: ServiceBench }
    if (mod.bench) all.push(mod.bench)
  }
  const known = [...all.map((b) => b.service as string), ...SCRIPTS.map((s) => s.id)]
  const unknown = wanted.filter((name) => !known.includes(name))
  if (unknown.length > 0) throw new Error(`no benchmark named ${unknown.join(', ')} (known: ${known.join(', ')})`)
  const benches = all.filter((b) => wanted.length === 0 || wanted.includes(b.service))
  const scripts = SCRIPTS.filter((s) => wanted.length === 0 || wanted.includes(s.id))
  const runStarted = performance.now()

  if (process.env.BENCH_SKIP_BUILD !== '1') {
    console.log('building dist/ …')
    const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
      cwd: root,
      stdio: 'inherit'
    })
    if (build.status !== 0) process.exit(build.status ?? 1)
    // The dashboard script measures the built web bundle (dist/web/dashboard).
    if (scripts.some((script) => script.id === 'dashboard')) {
      const web = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-web.mjs')], { cwd: root, stdio: 'inherit' })
      if (web.status !== 0) process.exit(web.status ?? 1)
    }
  }

  const lines = [
    '# Benchmarks',
    '',
    `Produced by \`npm run bench${wanted.length ? ` -- --only ${wanted.join(',')}` : ''}\` on ${new Date().toISOString().slice(0, 10)}: ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}` +
      ` (load average ${os.loadavg()[0]?.toFixed(1)} at the start).`
  ]
  if (benches.length > 0) lines.push(...(await httpSections(benches)))
  const outcomes: ScriptOutcome[] = []
  for (const script of scripts) {
    console.log(`${script.id}: bench/${script.file} …`)
    const outcome = await runScript(script)
    outcomes.push(outcome)
    for (const row of outcome.rows) console.log(`  ${row.name}: ${JSON.stringify(row.result.metrics)}`)
    if (outcome.failure) console.log(`  not measured: ${outcome.failure}`)
  }
  if (outcomes.length > 0) {
    lines.push(
      '',
      'The sections below come from stand-alone scripts (`bench/scripts.ts`), each run in its own process with the bounded',
      'arguments shown, on the same machine right after the rows above.',
      '',
      ...scriptSections(outcomes)
    )
  }
  lines.push('', 'Where a target is missed, [performance.md](performance.md) explains what was measured and why.', '')
  console.log(`bench took ${fmt((performance.now() - runStarted) / 1000)} s`)
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
