import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import { loadConfig, type Config } from '../../src/core/config/config.js'
import { openDatabase, type Database } from '../../src/core/db/database.js'
import { migrateToLatest } from '../../src/core/db/migrations.js'
import type { App } from '../../src/core/http/server.js'
import { configFragments, allMigrationSets } from '../../src/cli/registry.js'
import { orchestratorService } from '../../src/services/orchestrator/index.js'
import type { OrchestratorDb } from '../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from '../../src/services/orchestrator/state/repositories.js'
import { isolatedDatabaseEnv } from './cli.js'
import { buildService } from './config.js'

export interface TempProject {
  root: string
  /** Writes a file relative to the project root (creating folders). */
  write(relative: string, content: string): void
  git(...args: string[]): string
}

/** A temporary project folder, a git repository with one commit unless `git: false`; removed after the test file. */
export function createTempProject(options: { git?: boolean; config?: unknown; directives?: string } = {}): TempProject {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-project-')))
  after(() => fs.rmSync(root, { recursive: true, force: true }))
  const project: TempProject = {
    root,
    write(relative, content) {
      const file = path.join(root, relative)
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, content)
    },
    git: (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' })
  }
  project.write('README.md', '# demo project\n')
  if (options.config !== undefined) project.write('.quartet/config.json', JSON.stringify(options.config, null, 2))
  if (options.directives !== undefined) project.write('DIRECTIVES.md', options.directives)
  if (options.git !== false) {
    project.git('init', '-q', '-b', 'main')
    project.git('config', 'user.email', 'dev@example.com')
    project.git('config', 'user.name', 'Dev')
    fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), '.quartet/\n')
    project.git('add', '-A')
    project.git('commit', '-q', '-m', 'initial')
  }
  return project
}

export interface OrchestratorHarness {
  app: App
  project: TempProject
  config: Config
  database: Database
  repositories: OrchestratorRepositories
  /** The bearer token the server resolved (minted into the project on loopback). */
  token: string
  /** Authenticated inject (token unless `headers.authorization` is given). */
  call(
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>
  ): Promise<{ status: number; json: any; body: string; headers: Record<string, unknown> }>
  /** Listens on a loopback port; resolves the base URL. */
  listen(): Promise<string>
}

/**
 * The orchestrator built through its own service definition over a temporary project. The
 * database is one a separate process can open too (a SQLite file in the data dir, or a
 * PostgreSQL schema named in DATABASE_URL), because jobs run as detached processes.
 */
export async function startOrchestrator(
  options: { project?: TempProject; env?: Record<string, string>; git?: boolean; config?: unknown; directives?: string } = {}
): Promise<OrchestratorHarness> {
  const project =
    options.project ??
    createTempProject({
      ...(options.git !== undefined ? { git: options.git } : {}),
      config: options.config,
      ...(options.directives !== undefined ? { directives: options.directives } : {})
    })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-orch-data-'))
  const pg = await isolatedDatabaseEnv('orch')
  const config = loadConfig(
    {
      QUARTET_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      QUARTET_PROJECT: project.root,
      ...(pg.DATABASE_URL ? { DATABASE_URL: pg.DATABASE_URL } : {}),
      ...options.env
    },
    {},
    configFragments()
  )
  // The schema name lets table snapshots read this test's tables only (not every schema on the server).
  const database = Object.assign(
    await openDatabase({ url: config.databaseUrl, sqlitePath: path.join(dataDir, 'quartet.db'), poolSize: 4 }),
    { schema: pg.schema }
  )
  await migrateToLatest(database.db, allMigrationSets())
  const { app, release } = await buildService(orchestratorService, config, database)
  await app.ready()
  after(async () => {
    await app.close()
    await release()
    // A job the test started and did not wait for would outlive it (it is detached), and one still
    // loading its modules when the project and data dir are removed can hang for ever.
    killProcessesNaming(dataDir)
    await database.close()
    await pg.cleanup()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  const tokenFile = path.join(project.root, '.quartet', 'runtime', 'api-token')
  const token = options.env?.QUARTET_API_TOKEN ?? (fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, 'utf8').trim() : '')
  return {
    app,
    project,
    config,
    database,
    repositories: createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date()),
    token,
    async call(method, url, body, headers = {}) {
      const response = await app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {})
      })
      let json: unknown
      try {
        json = response.body ? JSON.parse(response.body) : undefined
      } catch {
        json = undefined
      }
      return { status: response.statusCode, json, body: response.body, headers: response.headers }
    },
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const address = app.server.address()
      return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    }
  }
}

/** Polls until `check` answers truthy (or fails after `ms`). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** SIGKILLs every process of this user whose command line contains `text` (e.g. a test's data dir). */
function killProcessesNaming(text: string): void {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    let commandLine: string
    try {
      commandLine = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8')
    } catch {
      continue // gone meanwhile
    }
    if (!commandLine.split('\0').includes(text)) continue
    try {
      process.kill(Number(entry), 'SIGKILL')
    } catch {
      // exited meanwhile
    }
  }
}
