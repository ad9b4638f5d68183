/**
 * Guided run flows end to end (issue 23): propose → approve → start → COMPLETED over HTTP, one
 * flow after another (the engine runs one job per project), with an agent that only writes one
 * file, in a real repository over SQLite. `npx tsx bench/run-flows-e2e.ts [flows]` (default 100).
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
import { createServiceContext } from '../src/core/service-context.js'
import { orchestratorService } from '../src/services/orchestrator/index.js'
import { reportRows } from './harness.js'

const FLOWS = Number(process.argv[2] ?? 100)
const TOKEN = 'bench-token-0123456789abcdef0123456789'
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-flows-')))
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-flows-data-'))
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' })
const agent = { kind: 'command', argv: ['/bin/sh', '-c', 'echo done > "out-$0.txt"', '{taskId}'] }
fs.mkdirSync(path.join(root, '.quartet'))
fs.writeFileSync(path.join(root, 'README.md'), '# bench\n')
fs.writeFileSync(
  path.join(root, '.quartet', 'config.json'),
  JSON.stringify({ agents: { noop: agent }, default_agent: 'noop', terminal: { run_flow_v2: true }, engine: { max_attempts: 1 } })
)
git('init', '-q', '-b', 'main')
git('config', 'user.email', 'bench@example.com')
git('config', 'user.name', 'Bench')
fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), '.quartet/\n')
git('add', '-A')
git('commit', '-q', '-m', 'initial')

const config = loadConfig(
  { QUARTET_DATA_DIR: dataDir, LOG_LEVEL: 'silent', QUARTET_PROJECT: root, QUARTET_API_TOKEN: TOKEN, QUARTET_CONTROL_MUTATIONS: '1' },
  {},
  configFragments()
)
const database = await openDatabase({ url: config.databaseUrl, sqlitePath: path.join(dataDir, 'quartet.db'), poolSize: 4 })
await migrateToLatest(database.db, allMigrationSets())
const { context, release } = await createServiceContext(orchestratorService, { config, database, logger: silentLogger() })
const started = await orchestratorService.create(context)
await started.app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(started.app.server.address() as { port: number }).port}`

async function call(method: string, url: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = await response.json()
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`)
  return json
}

const times: number[] = []
try {
  for (let i = 0; i < FLOWS; i++) {
    const t0 = performance.now()
    const flow = await call('POST', '/api/run-flow/propose', { intentSummary: `Write output file ${i}` })
    await call('POST', `/api/run-flow/${flow.flowId}/decision`, {
      decision: 'approve',
      revision: flow.revision,
      planDigest: flow.planDigest
    })
    await call('POST', `/api/run-flow/${flow.flowId}/start`)
    for (;;) {
      const now = await call('GET', `/api/run-flow/${flow.flowId}`)
      if (now.state === 'COMPLETED') break
      if (now.state === 'FAILED' || now.state === 'CANCELLED') throw new Error(`flow ${i} ${now.state}: ${now.failureReason}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    times.push(performance.now() - t0)
  }
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
  reportRows([
    {
      service: 'orchestrator',
      name: `run flow propose → approve → start → COMPLETED over HTTP, no-op command agent, ${FLOWS} flows one after another`,
      result: { metrics: { flows: FLOWS, 'median ms': at(0.5), 'p99 ms': at(0.99), 'total s': sorted.reduce((a, b) => a + b, 0) / 1000 } }
    }
  ])
} finally {
  await started.app.close()
  await release()
  await database.close()
  fs.rmSync(root, { recursive: true, force: true })
  fs.rmSync(dataDir, { recursive: true, force: true })
}
