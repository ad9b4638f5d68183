#!/usr/bin/env node
// Runs every test file under test/ with node:test (through tsx). Node 20 has no --test globs,
// so the files are listed here. Extra arguments are passed on (e.g. a file or --test-only).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const explicit = args.filter((a) => !a.startsWith('-'))
const flags = args.filter((a) => a.startsWith('-'))

function find(dir) {
  const out = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...find(full))
    else if (entry.name.endsWith('.test.ts')) out.push(full)
  }
  return out
}

// Tests that need no second run per database or Node version (real agent CLIs, browsers, terminal
// UIs, load-like runs) live under test/agents/ or test/browser/ or carry the marker below in their
// first lines; QUARTET_TEST_SCOPE=repeat (the PostgreSQL CI leg) leaves them out of a full run.
// =components (the Node 24 leg) also leaves out the end-to-end CLI tests under test/e2e/ and the
// orchestrator's engine-flow tests below: they spend their time in agent, job and git child
// processes, whose Node-version-dependent parts (spawning, the SQLite drivers, node-pty, streams)
// the remaining component tests cover (docs/decisions.md, "CI on Node 24").
const ONCE_MARKER = '@quartet-test-once'
const runsOnce = (file) =>
  file.includes(`${path.sep}test${path.sep}agents${path.sep}`) ||
  file.includes(`${path.sep}test${path.sep}browser${path.sep}`) ||
  fs.readFileSync(file, 'utf8').slice(0, 600).includes(ONCE_MARKER)
const scope = process.env.QUARTET_TEST_SCOPE
const repeatOnly = scope === 'repeat' || scope === 'components'
const isE2e = (file) => file.includes(`${path.sep}test${path.sep}e2e${path.sep}`)
const ENGINE_FLOWS = [
  'approvals',
  'autonomous',
  'chat',
  'evolution',
  'insight',
  'merge',
  'missions',
  'nervous',
  'run-flows',
  'submissions',
  'xverify'
]
const isEngineFlow = (file) =>
  ENGINE_FLOWS.some((dir) => file.includes(`${path.sep}test${path.sep}services${path.sep}orchestrator${path.sep}${dir}${path.sep}`))
const all = find(path.join(root, 'test')).sort()
const files =
  explicit.length > 0
    ? explicit
    : repeatOnly
      ? all.filter((file) => !runsOnce(file) && !(scope === 'components' && (isE2e(file) || isEngineFlow(file))))
      : all
if (repeatOnly && explicit.length === 0) console.log(`QUARTET_TEST_SCOPE=${scope}: ${all.length - files.length} test files left out`)
if (files.length === 0) {
  console.error('no test files found')
  process.exit(1)
}

// Web UIs are built before the browser tests that serve them.
if (
  fs.existsSync(path.join(root, 'scripts', 'build-web.mjs')) &&
  files.some((f) => f.includes(`${path.sep}browser${path.sep}`) || f.includes('.browser.'))
) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-web.mjs')], { stdio: 'inherit', cwd: root })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const concurrency = process.env.TEST_CONCURRENCY ?? '2'
console.error(`${files.length} test files, ${concurrency} at a time; progress on stderr`)
// Every PostgreSQL schema this run creates carries the run id; they are dropped at the end.
const run = `r${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
const result = spawnSync(
  process.execPath,
  // A per-test timeout turns a hang into a failure with a name instead of a stalled CI run.
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    `--test-timeout=${process.env.TEST_TIMEOUT_MS ?? 300000}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(root, 'scripts', 'progress-reporter.mjs')}`,
    '--test-reporter-destination=stderr',
    ...flags,
    ...files
  ],
  {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', QUARTET_TEST_RUN: run, QUARTET_TEST_FILES: String(files.length) }
  }
)

if (process.env.DATABASE_URL) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  try {
    await client.connect()
    const { rows } = await client.query(
      "select nspname from pg_namespace where nspname like 'test\\_' || $1 || '\\_%' or nspname like 'e2e\\_' || $1 || '\\_%'",
      [run]
    )
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`)
  } catch (error) {
    console.error(`could not drop this run's test schemas: ${error.message}`)
  } finally {
    await client.end().catch(() => {})
  }
}
process.exit(result.status ?? 1)
