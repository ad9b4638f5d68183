/**
 * OIDC vs API-token cost, and the audit chain's append cost: starts the built `quartet serve
 * orchestrator` (as `npm start` runs it) over a scratch project whose api_oidc points at a local
 * identity provider (RS256, JWKS over HTTP), loads `GET /api/status` with the API token, with an
 * OIDC token and a raw node:http baseline in interleaved rounds (BENCH_CONNECTIONS, default 50 as
 * in the HTTP table of docs/benchmarks.md; BENCH_SECONDS each; loopback), then times N audit
 * appends on a scratch SQLite database.
 * Run: node --import tsx bench/identity-auth.ts (after `npm run build`)
 */
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
import { CLI, CONNECTIONS, load, median, reportRows, serverEnv, startBaseline, startServer, stop } from './harness.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const APPENDS = Number(process.env.BENCH_APPENDS ?? 2000)
const CONNECTIONS_USED = Number(process.env.BENCH_CONNECTIONS ?? CONNECTIONS)

async function httpRows() {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`)
  const idp = await startTestIdentityProvider('quartet-bench')
  const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-oidc-')))
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-oidc-data-'))
  fs.mkdirSync(path.join(project, '.quartet'))
  fs.writeFileSync(
    path.join(project, '.quartet', 'config.json'),
    JSON.stringify({ api_oidc: { issuer: idp.issuer, audience: idp.audience } })
  )
  const token = 'bench-api-token-0123456789abcdef'
  const server = await startServer(
    ['orchestrator'],
    serverEnv({ QUARTET_PROJECT: project, QUARTET_API_TOKEN: token, LOG_LEVEL: 'warn' }, dataDir)
  )
  const baseline = await startBaseline()
  try {
    const url = `${server.urls.orchestrator}/api/status`
    const oidc = await idp.mint({ sub: 'bench', role: 'operator' })
    const byToken = { method: 'GET' as const, headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS_USED }
    const byOidc = { method: 'GET' as const, headers: { authorization: `Bearer ${oidc}` }, connections: CONNECTIONS_USED }
    const raw = { method: 'GET' as const, connections: CONNECTIONS_USED }
    await load(url, byToken, 1)
    await load(url, byOidc, 1)
    const rounds: { base: number; token: number; oidc: number; tokenP99: number; oidcP99: number; failures: number }[] = []
    for (let round = 0; round < 3; round++) {
      const b = await load(baseline.url, raw, SECONDS)
      const t = await load(url, byToken, SECONDS)
      const o = await load(url, byOidc, SECONDS)
      rounds.push({
        base: b.rps,
        token: t.rps,
        oidc: o.rps,
        tokenP99: t.p99,
        oidcP99: o.p99,
        failures: t.non2xx + t.errors + o.non2xx + o.errors
      })
    }
    return {
      'baseline req/s': median(rounds.map((r) => r.base)),
      'API token req/s': median(rounds.map((r) => r.token)),
      'OIDC req/s': median(rounds.map((r) => r.oidc)),
      'OIDC / baseline': median(rounds.map((r) => r.oidc / r.base)),
      'OIDC / API token': median(rounds.map((r) => r.oidc / r.token)),
      'API token p99 ms': median(rounds.map((r) => r.tokenP99)),
      'OIDC p99 ms': median(rounds.map((r) => r.oidcP99)),
      'non-2xx/errors': rounds.reduce((n, r) => n + r.failures, 0)
    }
  } finally {
    await stop(server.child)
    await stop(baseline.child)
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
const ofBaseline = http['OIDC / baseline']
reportRows([
  {
    service: 'orchestrator',
    name:
      'GET /api/status with an OIDC bearer (RS256, JWKS) vs the API token and a raw node:http baseline: ' +
      `built server, ${CONNECTIONS_USED} connections, 3 × ${SECONDS} s interleaved rounds, medians`,
    result: {
      metrics: {
        ...http,
        'OIDC / baseline': `${(ofBaseline * 100).toFixed(1)} %`,
        'OIDC / API token': `${(http['OIDC / API token'] * 100).toFixed(0)} %`
      },
      targetText: 'OIDC ≥ 25 % of baseline req/s',
      pass: ofBaseline >= 0.25 && http['non-2xx/errors'] === 0
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
