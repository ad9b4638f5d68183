import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { CLI_ENTRY, isolatedDatabaseEnv, startCli } from '../helpers/cli.js'
import { connectSse } from '../services/orchestrator/streams/sse-client.js'

/** `quartet <args>` run inside `cwd` (no --project, no data dir: the defaults of a user in the project). */
function cliIn(cwd: string, env: Record<string, string | undefined>, ...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // tsx by its resolved path: a bare `tsx` would be looked up from the project directory.
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), CLI_ENTRY, ...args], {
      cwd,
      env: { ...process.env, ...env }
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('close', (code) => resolve({ code, output }))
  })
}

test('quartet serve orchestrator --project X from another directory keeps its data in X/.quartet and sees the CLI run in X', async () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-e2e-projdir-')))
  const project = path.join(base, 'project')
  const elsewhere = path.join(base, 'elsewhere')
  fs.mkdirSync(project)
  fs.mkdirSync(elsewhere)
  const database = await isolatedDatabaseEnv('projdir')
  after(async () => {
    await database.cleanup()
    fs.rmSync(base, { recursive: true, force: true })
  })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project, encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  git('config', 'user.email', 'dev@example.com')
  git('config', 'user.name', 'Dev')
  fs.writeFileSync(path.join(project, 'README.md'), '# demo\n')
  fs.writeFileSync(path.join(project, 'DIRECTIVES.md'), '## Task 1: one\nWrite a note.\n')
  fs.appendFileSync(path.join(project, '.git', 'info', 'exclude'), '.quartet/\n')
  git('add', '-A')
  git('commit', '-q', '-m', 'initial')
  // No QUARTET_DATA_DIR and no QUARTET_PROJECT from the test runner's environment: the defaults are under test.
  const env = {
    QUARTET_DATA_DIR: undefined,
    QUARTET_PROJECT: undefined,
    DATABASE_URL: database.DATABASE_URL,
    LOG_LEVEL: 'warn',
    NO_COLOR: '1'
  }

  // startCli runs from the repository checkout: a directory other than the project.
  const server = await startCli(['serve', 'orchestrator', '--project', project, '--port', '0'], env, 60_000)
  after(() => server.stop('SIGKILL'))
  const databaseRecord = server.records().find((record) => record.msg === 'database')
  if (!database.DATABASE_URL) {
    assert.equal(databaseRecord?.file, path.join(project, '.quartet', 'quartet.db'), server.output())
    assert.ok(fs.existsSync(path.join(project, '.quartet', 'quartet.db')), 'the SQLite file is in the project')
  }

  const token = fs.readFileSync(path.join(project, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const auth = { authorization: `Bearer ${token}` }
  const stream = await connectSse(`${server.urls.orchestrator!}/api/events?after=0`, auth)
  after(() => stream.close())

  // The CLI of a user inside the project, which never heard of the server's working directory.
  const planned = await cliIn(project, env, 'plan')
  assert.equal(planned.code, 0, planned.output)
  await stream.waitFor(() => stream.frames.some((frame) => frame.event === 'sprint_planned'), 30_000)
  const status = await (await fetch(`${server.urls.orchestrator!}/api/status`, { headers: auth })).text()
  assert.match(status, /"s1"/, 'the server reads the sprint the CLI planned')
  // A CLI started elsewhere with --project opens the same data too.
  const fromElsewhere = await cliIn(elsewhere, env, 'status', '--project', project)
  assert.match(fromElsewhere.output, /s1/)
  assert.equal(fs.existsSync(path.join(elsewhere, '.quartet')), false, 'nothing is written where the commands were started')
  assert.equal(await server.stop('SIGTERM'), 0)
})
