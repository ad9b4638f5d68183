/**
 * The memory search row alone, on SQLite or PostgreSQL: seeds 50,000 entries once into a kept
 * directory (reused by later runs), starts `quartet serve orchestrator` on it, and loads
 * `GET /api/memory/search?v=1&q=…` with 20 connections, reporting req/s, p50/p99 and the server's
 * CPU time per request (from /proc, so the load generator's share is not counted).
 *
 *   npx tsx bench/memory-search.ts [--dir /tmp/quartet-memory-bench] [--rounds 3] [--seconds 5]
 *   DATABASE_URL=postgres://…/memory_bench npx tsx bench/memory-search.ts
 *
 * The server runs from dist/ when QUARTET_BENCH_DIST=1, else from src/ through tsx (no build).
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { load, root } from './harness.js'
import { distinctMemoryQueries, MEMORY_ENTRIES, MEMORY_QUERY, seedMemory } from './memory-seed.js'

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp/quartet-memory-bench' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' }
  }
})
const databaseUrl = process.env.DATABASE_URL
const base = path.join(values.dir!, databaseUrl ? 'postgres' : 'sqlite')
const project = path.join(base, 'project')
const dataDir = path.join(base, 'data')
const seededMark = path.join(base, 'seeded.json')

if (!fs.existsSync(seededMark)) {
  fs.rmSync(base, { recursive: true, force: true })
  fs.mkdirSync(project, { recursive: true })
  fs.mkdirSync(dataDir, { recursive: true })
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project })
  const started = Date.now()
  const seeded = await seedMemory({
    databaseUrl,
    sqlitePath: databaseUrl ? undefined : path.join(dataDir, 'quartet.db'),
    projectRoot: fs.realpathSync(project)
  })
  console.log(
    `seeded ${MEMORY_ENTRIES} entries in ${((Date.now() - started) / 1000).toFixed(1)} s (${seeded.matching} match "${MEMORY_QUERY}")`
  )
  fs.writeFileSync(seededMark, JSON.stringify(seeded))
}

const cpuTicks = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12])
}

const port = 30000 + Math.floor(Math.random() * 20000)
const entry =
  process.env.QUARTET_BENCH_DIST === '1'
    ? [path.join(root, 'dist', 'cli', 'main.js')]
    : ['--import', 'tsx', path.join(root, 'src', 'cli', 'main.ts')]
const env: Record<string, string> = { ...(process.env as Record<string, string>), QUARTET_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }
delete env.REDIS_URL
const extraFlags = (process.env.QUARTET_BENCH_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '')
const server = spawn(
  process.execPath,
  [
    '--max-semi-space-size=8',
    '--no-allocation-site-pretenuring',
    ...extraFlags,
    ...entry,
    'serve',
    'orchestrator',
    '--project',
    fs.realpathSync(project),
    '--port',
    String(port)
  ],
  {
    env,
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit']
  }
)
try {
  const baseUrl = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (
      await fetch(`${baseUrl}/health`).then(
        (r) => r.ok,
        () => false
      )
    )
      break
    if (i > 600) throw new Error('server did not start')
    await new Promise((r) => setTimeout(r, 100))
  }
  const token = fs.readFileSync(path.join(project, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const url = `${baseUrl}/api/memory/search?${new URLSearchParams({ v: '1', q: MEMORY_QUERY })}`
  const headers = { authorization: `Bearer ${token}` }
  const probe = await fetch(url, { headers })
  const body = await probe.text()
  const view = (JSON.parse(body) as { view: { state: string; entries: unknown[]; deferred: unknown[] } }).view
  if (view.state !== 'AVAILABLE') throw new Error(`unexpected view ${body.slice(0, 300)}`)
  console.log(
    `${databaseUrl ? 'PostgreSQL' : 'SQLite'}: ${view.entries.length} entries, ${view.deferred.length} deferred, ` +
      `${body.length} bytes per answer`
  )
  // One query repeated (a kept answer from its second read on), and 5,000 different ones in turn (each ranked and assembled).
  const distinct = distinctMemoryQueries(5000).map((query) => `/api/memory/search?${new URLSearchParams({ v: '1', q: query })}`)
  const run = (duration: number, rotate: boolean) =>
    load(url, { method: 'GET', headers, connections: 20, ...(rotate ? { rotatePaths: distinct } : {}) }, duration)
  await run(2, false)
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const rotate of [false, true]) {
      const before = cpuTicks(server.pid!)
      const result = await run(Number(values.seconds), rotate)
      const cpuMs = (cpuTicks(server.pid!) - before) * 10
      const cpuPerRequest = cpuMs / Math.max(1, result.requests)
      console.log(
        `round ${round}, ${rotate ? 'different queries' : 'one query'}: ${Math.round(result.rps)} req/s, ` +
          `p50 ${result.p50} ms, p99 ${result.p99} ms, server CPU ${cpuPerRequest.toFixed(2)} ms/request, ` +
          `${result.non2xx + result.errors} non-2xx/errors`
      )
    }
  }
} finally {
  server.kill('SIGTERM')
  await new Promise((resolve) => server.once('exit', resolve))
}
