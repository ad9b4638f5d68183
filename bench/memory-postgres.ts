/**
 * The memory search rows on PostgreSQL, for `npm run bench` (the HTTP rows serve SQLite): creates
 * a scratch database on the PostgreSQL server of BENCH_DATABASE_URL (else DATABASE_URL, else the
 * local default), seeds 50,000 entries into it through the repository, starts the built
 * `quartet serve orchestrator` on it and loads `GET /api/memory/search?v=1` with 20 connections —
 * one query repeated, and a different query on every request — in alternating rounds; the scratch
 * database is dropped afterwards. Without a reachable server the row says so and measures nothing.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { CustomResult } from './types.js'
import { cpuMs, load, median, ROUND_SECONDS, ROUNDS, serverEnv, startServer, stop } from './harness.js'
import { distinctMemoryQueries, MEMORY_QUERY, seedMemory } from './memory-seed.js'

const SCRATCH_DATABASE = 'quartet_memory_bench'
const TARGET_P99_MS = 20

function adminUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

export async function memorySearchOnPostgres(): Promise<CustomResult> {
  const serverUrl = adminUrl()
  try {
    await admin(serverUrl, `drop database if exists ${SCRATCH_DATABASE}`)
    await admin(serverUrl, `create database ${SCRATCH_DATABASE}`)
  } catch (error) {
    return {
      metrics: { skipped: `no PostgreSQL to create a scratch database on (${new URL(serverUrl).host}: ${(error as Error).message})` }
    }
  }
  const scratch = new URL(serverUrl)
  scratch.pathname = `/${SCRATCH_DATABASE}`
  const databaseUrl = scratch.toString()
  const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-memory-pg-')))
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-memory-pg-data-'))
  try {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project })
    const seeded = await seedMemory({ databaseUrl, projectRoot: project })
    const env = {
      ...serverEnv({ LOG_LEVEL: 'warn', ORCHESTRATOR_PORT: '0', QUARTET_PROJECT: project }, dataDir),
      DATABASE_URL: databaseUrl
    }
    const server = await startServer(['orchestrator'], env)
    try {
      const baseUrl = server.urls.orchestrator!
      const token = fs.readFileSync(path.join(project, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
      const headers = { authorization: `Bearer ${token}` }
      const url = `${baseUrl}/api/memory/search?${new URLSearchParams({ v: '1', q: MEMORY_QUERY })}`
      const probe = (await (await fetch(url, { headers })).json()) as { view: { state: string } }
      if (probe.view.state !== 'AVAILABLE') throw new Error(`unexpected view ${JSON.stringify(probe).slice(0, 300)}`)
      const distinct = distinctMemoryQueries(5000).map((query) => `/api/memory/search?${new URLSearchParams({ v: '1', q: query })}`)
      const repeated = { method: 'GET' as const, headers, connections: 20 }
      const different = { ...repeated, rotatePaths: distinct }
      await load(url, repeated, 2)
      await load(url, different, 2)
      const rounds: Array<{ one: Awaited<ReturnType<typeof load>>; many: Awaited<ReturnType<typeof load>>; cpuPerDifferent: number }> = []
      for (let round = 0; round < ROUNDS; round++) {
        const one = await load(url, repeated, ROUND_SECONDS)
        const before = cpuMs(server.pid)
        const many = await load(url, different, ROUND_SECONDS)
        rounds.push({ one, many, cpuPerDifferent: (cpuMs(server.pid) - before) / Math.max(1, many.requests) })
      }
      const oneP99 = median(rounds.map((r) => r.one.p99))
      const failures = rounds.reduce((n, r) => n + r.one.non2xx + r.one.errors + r.many.non2xx + r.many.errors, 0)
      return {
        metrics: {
          'one query req/s': median(rounds.map((r) => r.one.rps)),
          'one query p50 ms': median(rounds.map((r) => r.one.p50)),
          'one query p99 ms': oneP99,
          'different queries req/s': median(rounds.map((r) => r.many.rps)),
          'different queries p50 ms': median(rounds.map((r) => r.many.p50)),
          'different queries p99 ms': median(rounds.map((r) => r.many.p99)),
          'server CPU ms per different query': median(rounds.map((r) => r.cpuPerDifferent)),
          'matching entries': seeded.matching,
          'non-2xx/errors': failures
        },
        pass: oneP99 < TARGET_P99_MS && failures === 0,
        targetText: `p99 < ${TARGET_P99_MS} ms at 20 connections (the one-query row; medians of ${ROUNDS} rounds)`
      }
    } finally {
      await stop(server.child)
    }
  } finally {
    fs.rmSync(project, { recursive: true, force: true })
    fs.rmSync(dataDir, { recursive: true, force: true })
    await admin(serverUrl, `drop database if exists ${SCRATCH_DATABASE}`).catch(() => undefined)
  }
}
