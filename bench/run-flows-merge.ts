/**
 * Bounded measurements for issue 23 (run with `npx tsx bench/run-flows-merge.ts`):
 *  - GET /api/run-flow/list with 1,000 stored flows, served by the built `quartet serve orchestrator`
 *    (as `npm start` runs it), vs the raw node:http baseline in its own process (autocannon,
 *    loopback, 10 connections, 3 interleaved rounds of BENCH_SECONDS (default 5) each);
 *  - the merge queue landing 50 DONE task branches in a real repository (total and per task).
 * Everything is built in temporary directories over SQLite and removed afterwards.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { configFragments, allMigrationSets } from '../src/cli/registry.js'
import { loadConfig } from '../src/core/config/config.js'
import { openDatabase } from '../src/core/db/database.js'
import { migrateToLatest } from '../src/core/db/migrations.js'
import { silentLogger } from '../src/core/logger.js'
import { nodePlatform } from '../src/core/platform.js'
import { cliPrincipal } from '../src/services/orchestrator/principal.js'
import { createOrchestrator } from '../src/services/orchestrator/compose.js'
import type { OrchestratorDb } from '../src/services/orchestrator/state/db.js'
import { createRunFlowsRepository } from '../src/services/orchestrator/state/run-flows.repository.js'
import { CLI, cpuText, load, median, reportRows, serverEnv, startBaseline, startServer, stop } from './harness.js'

const TOKEN = 'bench-token-0123456789abcdef0123456789'
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-project-')))
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-data-'))
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' })

function write(relative: string, content: string) {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true })
  fs.writeFileSync(path.join(root, relative), content)
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`)

const N_TASKS = 50
write('README.md', '# bench\n')
write('.quartet/config.json', JSON.stringify({ agents: {}, terminal: { run_flow_v2: true } }))
write('DIRECTIVES.md', Array.from({ length: N_TASKS }, (_, i) => `## Task ${i + 1}: task ${i + 1}\nDo it.\n`).join('\n'))
git('init', '-q', '-b', 'main')
git('config', 'user.email', 'bench@example.com')
git('config', 'user.name', 'Bench')
fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), '.quartet/\n')
git('add', '-A')
git('commit', '-q', '-m', 'initial')

const config = loadConfig(
  { QUARTET_DATA_DIR: dataDir, LOG_LEVEL: 'silent', QUARTET_PROJECT: root, QUARTET_API_TOKEN: TOKEN },
  {},
  configFragments()
)
const database = await openDatabase({ url: config.databaseUrl, sqlitePath: path.join(dataDir, 'quartet.db'), poolSize: 4 })
await migrateToLatest(database.db, allMigrationSets())
const orch = await createOrchestrator({
  database,
  platform: nodePlatform(),
  projectRoot: root,
  dataDir,
  databaseUrl: undefined,
  controlMutationsSwitch: true,
  logger: silentLogger()
})

// --- merge queue: 50 DONE tasks, each its own branch and file ---
const planned = await orch.engine.plan(cliPrincipal('bench'), { mode: 'structured' })
for (const [i, task] of planned.tasks.entries()) {
  const branch = `quartet/${task.sprintId}/${task.id}`
  git('checkout', '-q', '-b', branch, 'main')
  write(`f${i}.txt`, `${i}\n`)
  git('add', '-A')
  git('commit', '-q', '-m', `work of ${task.id}`)
  git('checkout', '-q', 'main')
  await database.db
    .updateTable('orch_tasks' as never)
    .set({ status: 'DONE', branch, finished_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() } as never)
    .where('id' as never, '=', task.id as never)
    .execute()
}
const mergeStart = performance.now()
const run = await orch.merges.mergeNow(cliPrincipal('bench'), {})
const mergeMs = performance.now() - mergeStart
const merged = run.items.filter((i) => i.status === 'MERGED')
const perTask = merged
  .map((item, i) => Date.parse(item.updatedAt) - Date.parse(i === 0 ? run.createdAt : merged[i - 1]!.updatedAt))
  .sort((a, b) => a - b)
console.log(
  `merge queue: ${merged.length}/${run.items.length} merged in ${Math.round(mergeMs)} ms; ` +
    `per task median ${perTask[Math.floor(perTask.length / 2)]} ms (no check command)`
)

// --- GET /api/run-flow/list with 1,000 flows ---
const flows = createRunFlowsRepository(database.db as OrchestratorDb, () => new Date())
const actor = {
  id: 'api-static',
  role: 'admin',
  tenantId: 'local',
  identityClass: 'api-token',
  assurance: 'token-verified',
  provenance: 'api'
}
for (let i = 0; i < 1000; i++) {
  const flowId = `bench-${i}`
  const proposal = { flowId, tenant: 'local', project: 'bench', actor, origin: 'api' as const, revision: 1, intentSummary: `intent ${i}` }
  const preview = {
    flowId,
    revision: 1,
    planDigest: 'a'.repeat(64),
    taskSummaries: [{ title: `t${i}`, summary: `s${i}` }],
    policyDecision: 'needs-approval' as const,
    gateResult: 'skipped' as const,
    writeScopes: [],
    warnings: []
  }
  await flows.create(
    { flowId, projectId: orch.projectId, tenantId: 'local', intentSummary: `intent ${i}`, proposal, preview, sprintId: planned.sprint.id },
    [{ type: 'PROPOSAL_SUBMITTED', data: { proposal } }]
  )
}
orch.close()
await database.close()

const server = await startServer(
  ['orchestrator'],
  serverEnv({ QUARTET_PROJECT: root, QUARTET_API_TOKEN: TOKEN, LOG_LEVEL: 'warn' }, dataDir)
)
const baseline = await startBaseline()
try {
  const url = `${server.urls.orchestrator}/api/run-flow/list`
  const byToken = { method: 'GET' as const, headers: { authorization: `Bearer ${TOKEN}` }, connections: 10 }
  const first = await load(url, byToken, 1)
  if (first.non2xx > 0 || first.errors > 0) throw new Error(`${url}: ${first.non2xx} non-2xx, ${first.errors} errors`)
  const rounds: { base: number; list: number; p99: number; failures: number }[] = []
  for (let round = 0; round < 3; round++) {
    const base = await load(baseline.url, { method: 'GET', connections: 10 }, SECONDS)
    const list = await load(url, byToken, SECONDS, server.pid)
    const cpu = `server CPU ${cpuText(list.serverCpu)} / load generator ${cpuText(list.loaderCpu)}`
    console.log(`round ${round + 1}: list ${Math.round(list.rps)} req/s, ${cpu}`)
    rounds.push({ base: base.rps, list: list.rps, p99: list.p99, failures: list.non2xx + list.errors })
  }
  const listRps = median(rounds.map((r) => r.list))
  const baseRps = median(rounds.map((r) => r.base))
  const ratio = median(rounds.map((r) => r.list / r.base))
  const failures = rounds.reduce((n, r) => n + r.failures, 0)
  console.log(`baseline node:http: ${Math.round(baseRps)} req/s`)
  console.log(
    `GET /api/run-flow/list (1000 flows): ${Math.round(listRps)} req/s (p99 ${median(rounds.map((r) => r.p99))} ms) = ` +
      `${(100 * ratio).toFixed(1)} % of baseline`
  )
  reportRows([
    {
      service: 'orchestrator',
      name: `merge queue lands ${N_TASKS} DONE task branches in a real repository (no check command)`,
      result: {
        metrics: {
          merged: `${merged.length}/${run.items.length}`,
          'total ms': mergeMs,
          'per task median ms': perTask[Math.floor(perTask.length / 2)]!
        }
      }
    },
    {
      service: 'orchestrator',
      name:
        'GET /api/run-flow/list (1,000 flows stored; first page, default limit 50; built server, 10 connections) ' +
        `vs raw node:http, 3 × ${SECONDS} s interleaved rounds, medians`,
      result: {
        metrics: {
          'req/s': listRps,
          'p99 ms': median(rounds.map((r) => r.p99)),
          'baseline req/s': baseRps,
          ratio: `${(100 * ratio).toFixed(1)} %`,
          'non-2xx/errors': failures
        },
        targetText: '≥ 20 % of baseline req/s',
        pass: ratio >= 0.2 && failures === 0
      }
    }
  ])
} finally {
  await stop(server.child)
  await stop(baseline.child)
  fs.rmSync(root, { recursive: true, force: true })
  fs.rmSync(dataDir, { recursive: true, force: true })
}
