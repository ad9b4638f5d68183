/**
 * The memory search benchmark on PostgreSQL (bench/run.ts serves SQLite only): seeds 50,000
 * entries through the repository into DATABASE_URL, starts the built `quartet serve orchestrator`
 * on it, and loads `GET /api/memory/search?v=1&q=…` with 20 connections for BENCH_DURATION s.
 *
 *   DATABASE_URL=postgres://… npm run build && npx tsx bench/memory-postgres.ts
 */
import { spawn } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { MEMORY_ENTRIES, MEMORY_QUERY, seedMemory } from './memory-seed.js'

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL (a database this run may fill)')
const root = path.resolve(import.meta.dirname, '..')
const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-memory-')))
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-memory-data-'))
execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project })

const started = Date.now()
const { matching } = await seedMemory({ databaseUrl, projectRoot: project })
console.log(`seeded ${MEMORY_ENTRIES} entries in ${((Date.now() - started) / 1000).toFixed(1)} s (${matching} match "${MEMORY_QUERY}")`)

const port = 30000 + Math.floor(Math.random() * 20000)
const server = spawn(process.execPath, [path.join(root, 'dist', 'cli', 'main.js'), 'serve', 'orchestrator', '--project', project, '--port', String(port)], {
  env: { ...process.env, QUARTET_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit']
})
try {
  const baseUrl = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false)) break
    if (i > 300) throw new Error('server did not start')
    await new Promise((r) => setTimeout(r, 100))
  }
  const token = fs.readFileSync(path.join(project, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const url = `${baseUrl}/api/memory/search?${new URLSearchParams({ v: '1', q: MEMORY_QUERY })}`
  const probe = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json() as { view: { state: string; entries: unknown[] } }
  if (probe.view.state !== 'AVAILABLE') throw new Error(`unexpected view ${JSON.stringify(probe).slice(0, 300)}`)
  const run = (duration: number) => autocannon({ url, connections: 20, duration, headers: { authorization: `Bearer ${token}` } })
  await run(2) // warm-up
  const result = await run(Number(process.env.BENCH_DURATION ?? 8))
  const non2xx = result.non2xx + result.errors
  console.log(`GET /api/memory/search?v=1 on PostgreSQL, 20 connections: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${probe.view.entries.length} entries per answer, ${non2xx} non-2xx/errors`)
} finally {
  server.kill('SIGTERM')
  fs.rmSync(project, { recursive: true, force: true })
  fs.rmSync(dataDir, { recursive: true, force: true })
}
