/**
 * OIDC vs API-token cost, and the audit chain's append cost: starts `quartet serve orchestrator`
 * from source (tsx) over a scratch project whose api_oidc points at a local identity provider
 * (RS256, JWKS over HTTP), loads `GET /api/status` with the API token and with an OIDC token in
 * alternating rounds (10 connections, BENCH_SECONDS each, loopback), then times N audit appends
 * on a scratch SQLite database. Run: node --import tsx bench/identity-auth.ts
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase } from '../src/core/db/database.js'
import { migrateToLatest } from '../src/core/db/migrations.js'
import { allMigrationSets } from '../src/cli/registry.js'
import { createAuditService } from '../src/services/orchestrator/modules/enterprise/audit.service.js'
import type { OrchestratorDb } from '../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories } from '../src/services/orchestrator/state/repositories.js'
import { startTestIdentityProvider } from '../test/helpers/idp.js'
import { load, median, reportRows, root, stop } from './harness.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
// A random port by default: a fixed one could be held by another server, whose answers would be measured.
const PORT = Number(process.env.BENCH_PORT ?? 30_000 + Math.floor(Math.random() * 20_000))
const APPENDS = Number(process.env.BENCH_APPENDS ?? 2000)

async function waitForHealth(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('server did not start')
}

async function httpRows() {
  const idp = await startTestIdentityProvider('quartet-bench')
  const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-oidc-')))
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-oidc-data-'))
  fs.mkdirSync(path.join(project, '.quartet'))
  fs.writeFileSync(
    path.join(project, '.quartet', 'config.json'),
    JSON.stringify({ api_oidc: { issuer: idp.issuer, audience: idp.audience } })
  )
  const token = 'bench-api-token-0123456789abcdef'
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'cli', 'main.ts'), 'serve', 'orchestrator'], {
    cwd: root,
    env: {
      ...process.env,
      QUARTET_PROJECT: project,
      QUARTET_DATA_DIR: dataDir,
      ORCHESTRATOR_PORT: String(PORT),
      QUARTET_API_TOKEN: token,
      LOG_LEVEL: 'warn',
      DATABASE_URL: ''
    },
    stdio: ['ignore', 'ignore', 'inherit']
  })
  try {
    const base = `http://127.0.0.1:${PORT}`
    await waitForHealth(`${base}/health`)
    const oidc = await idp.mint({ sub: 'bench', role: 'operator' })
    const url = `${base}/api/status`
    const byToken = { method: 'GET' as const, headers: { authorization: `Bearer ${token}` }, connections: 10 }
    const byOidc = { method: 'GET' as const, headers: { authorization: `Bearer ${oidc}` }, connections: 10 }
    await load(url, byToken, 1)
    await load(url, byOidc, 1)
    const rounds: { token: number; oidc: number; tokenP99: number; oidcP99: number; failures: number }[] = []
    for (let round = 0; round < 3; round++) {
      const t = await load(url, byToken, SECONDS)
      const o = await load(url, byOidc, SECONDS)
      rounds.push({ token: t.rps, oidc: o.rps, tokenP99: t.p99, oidcP99: o.p99, failures: t.non2xx + t.errors + o.non2xx + o.errors })
    }
    return {
      'API token req/s': median(rounds.map((r) => r.token)),
      'OIDC req/s': median(rounds.map((r) => r.oidc)),
      'OIDC / API token': median(rounds.map((r) => r.oidc / r.token)),
      'API token p99 ms': median(rounds.map((r) => r.tokenP99)),
      'OIDC p99 ms': median(rounds.map((r) => r.oidcP99)),
      'non-2xx/errors': rounds.reduce((n, r) => n + r.failures, 0)
    }
  } finally {
    await stop(child)
    await idp.close()
    fs.rmSync(project, { recursive: true, force: true })
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

async function auditAppend() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-audit-'))
  const database = await openDatabase({ url: undefined, sqlitePath: path.join(dir, 'quartet.db'), poolSize: 1 })
  try {
    await migrateToLatest(database.db, allMigrationSets())
    const repositories = createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date())
    const projectId = await repositories.projects.ensure(dir)
    const key = Buffer.alloc(32, 7)
    const audit = createAuditService({ repository: repositories.audit, projectId, key: () => key, clock: () => new Date() })
    const entry = {
      tenantId: 'local',
      actor: 'bench',
      action: 'POST /api/x',
      target: 'x',
      result: 'success' as const,
      gate: 'allowed' as const,
      status: 200,
      detail: { method: 'POST' }
    }
    for (let i = 0; i < 100; i++) await audit.append(entry)
    const started = process.hrtime.bigint()
    for (let i = 0; i < APPENDS; i++) await audit.append(entry)
    const sequentialUs = Number(process.hrtime.bigint() - started) / 1000 / APPENDS
    const verifyStarted = process.hrtime.bigint()
    const verified = await audit.verify()
    const verifyUs = Number(process.hrtime.bigint() - verifyStarted) / 1000 / verified.records
    return {
      'audit append µs (SQLite, sequential)': sequentialUs,
      'verify µs per record': verifyUs,
      records: verified.records,
      ok: verified.ok
    }
  } finally {
    await database.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const http = await httpRows()
const audit = await auditAppend()
const ratio = http['OIDC / API token']
reportRows([
  {
    service: 'orchestrator',
    name:
      'GET /api/status with an OIDC bearer (RS256, JWKS) vs the API token: ' +
      `server from source (tsx), 10 connections, 3 × ${SECONDS} s rounds, medians`,
    result: {
      metrics: { ...http, 'OIDC / API token': `${(ratio * 100).toFixed(0)} %` },
      targetText: 'OIDC ≥ 25 % of the API-token rate',
      pass: ratio >= 0.25 && http['non-2xx/errors'] === 0
    }
  },
  {
    service: 'orchestrator',
    name: `audit chain append: ${APPENDS} sequential appends, SQLite file, one transaction each; then verify`,
    result: {
      metrics: {
        'µs per append': audit['audit append µs (SQLite, sequential)'],
        'verify µs per record': audit['verify µs per record'],
        records: audit.records,
        verified: audit.ok ? 'ok' : 'FAILED'
      }
    }
  }
])
