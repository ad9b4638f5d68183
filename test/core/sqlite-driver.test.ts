import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isForeignKeyViolation, isUniqueViolation } from '../../src/core/db/errors.js'
import {
  defaultSqliteDriver,
  openSqlite,
  sqliteDriver,
  type SqliteConnection,
  type SqliteDriverName
} from '../../src/core/db/sqlite-driver.js'

test('SQLite driver by Node version: better-sqlite3 before 22.16, node:sqlite from then on', () => {
  assert.equal(defaultSqliteDriver('20.19.0'), 'better-sqlite3')
  assert.equal(defaultSqliteDriver('20.20.2'), 'better-sqlite3')
  assert.equal(defaultSqliteDriver('22.15.1'), 'better-sqlite3')
  assert.equal(defaultSqliteDriver('22.16.0'), 'node:sqlite')
  assert.equal(defaultSqliteDriver('22.23.3'), 'node:sqlite')
  assert.equal(defaultSqliteDriver('24.0.0'), 'node:sqlite')
  assert.equal(defaultSqliteDriver('26.1.0'), 'node:sqlite')
  assert.equal(sqliteDriver({}, '24.21.0'), 'node:sqlite')
  assert.equal(sqliteDriver({ QUARTET_SQLITE_DRIVER: 'better-sqlite3' }, '24.21.0'), 'better-sqlite3')
  assert.throws(() => sqliteDriver({ QUARTET_SQLITE_DRIVER: 'sqlite3' }, '24.21.0'), /QUARTET_SQLITE_DRIVER/)
})

const major = Number(process.versions.node.split('.')[0])
const drivers: SqliteDriverName[] = []
if (defaultSqliteDriver(process.versions.node) === 'node:sqlite') drivers.push('node:sqlite')
// better-sqlite3 12 aborts on Node 24 (the reason for node:sqlite); compare with it where it works.
if (major < 24) drivers.push('better-sqlite3')

for (const driver of drivers) {
  describe(`SQLite driver ${driver}: the surface Kysely, the group commit and the statement cache use`, () => {
    let dir: string
    let db: SqliteConnection
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-sqlite-driver-'))
      db = openSqlite(path.join(dir, 'test.db'), { driver }).connection
      db.exec('PRAGMA foreign_keys = ON')
      db.exec('CREATE TABLE parents (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, data BLOB)')
      db.exec('CREATE TABLE children (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parents(id))')
    })
    after(() => {
      db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })

    test('statements say whether they return rows (reader) and whether they write (readonly)', () => {
      const flags = (text: string) => {
        const statement = db.prepare(text)
        return { reader: statement.reader, readonly: statement.readonly }
      }
      assert.deepEqual(flags('SELECT id, name FROM parents WHERE id = ?'), { reader: true, readonly: true })
      assert.deepEqual(flags('WITH x AS (SELECT 1 AS one) SELECT one FROM x'), { reader: true, readonly: true })
      assert.deepEqual(flags('INSERT INTO parents (name) VALUES (?)'), { reader: false, readonly: false })
      assert.deepEqual(flags('INSERT INTO parents (name) VALUES (?) RETURNING id'), { reader: true, readonly: false })
      assert.deepEqual(flags('UPDATE parents SET name = ? WHERE id = ?'), { reader: false, readonly: false })
      assert.deepEqual(flags('DELETE FROM children WHERE id = ?'), { reader: false, readonly: false })
      assert.deepEqual(flags('CREATE TABLE IF NOT EXISTS other (id INTEGER PRIMARY KEY)'), { reader: false, readonly: false })
      // Transaction control counts as read-only for sqlite3_stmt_readonly (and so for the group commit).
      assert.deepEqual(flags('SAVEPOINT s'), { reader: false, readonly: true })
    })

    test('parameters arrive as one array; run reports changes and the new rowid; rows are plain objects with BLOBs as Buffers', () => {
      const inserted = db.prepare('INSERT INTO parents (name, data) VALUES (?, ?)').run(['ada', Buffer.from([1, 2, 3])])
      assert.equal(Number(inserted.changes), 1)
      const id = Number(inserted.lastInsertRowid)
      assert.ok(id > 0)
      const rows = db.prepare('SELECT id, name, data, NULL AS missing, 1.5 AS half FROM parents WHERE id = ?').all([id]) as Record<
        string,
        unknown
      >[]
      assert.deepStrictEqual(rows, [{ id, name: 'ada', data: Buffer.from([1, 2, 3]), missing: null, half: 1.5 }])
      assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype)
      assert.ok(Buffer.isBuffer(rows[0]?.data))
      assert.deepStrictEqual([...db.prepare('SELECT name FROM parents WHERE id >= ? ORDER BY id').iterate([id])], [{ name: 'ada' }])
      assert.deepStrictEqual(db.prepare('SELECT count(*) AS n FROM parents').all(), [{ n: 1 }])
      const returned = db.prepare('INSERT INTO parents (name) VALUES (?) RETURNING id, name').all(['grace'])
      assert.deepStrictEqual(returned, [{ id: id + 1, name: 'grace' }])
    })

    test('rows are made per statement with the names SQLite gives the columns, whatever they are', () => {
      const rows = db
        .prepare(`SELECT 1 AS a, 2 AS a, 3 AS "we""ird 'name'", 4 AS "7", 5 AS "__proto__", 6 AS constructor, 'x' AS "ü"`)
        .all() as Record<string, unknown>[]
      const row = rows[0] as Record<string, unknown>
      // A later column of the same name wins, as in the drivers' own row objects.
      assert.equal(row.a, 2)
      assert.equal(row[`we"ird 'name'`], 3)
      assert.equal(row['7'], 4)
      // A column named __proto__ is a column, not the row's prototype.
      assert.ok(Object.hasOwn(row, '__proto__'))
      assert.equal(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, 5)
      assert.equal(Object.getPrototypeOf(row), Object.prototype)
      assert.equal(row.constructor, 6)
      assert.equal(row['ü'], 'x')
      assert.deepEqual(Object.keys(row).sort(), ['7', '__proto__', 'a', 'constructor', `we"ird 'name'`, 'ü'].sort())
      // Every row of a statement, and of each run of it, is its own object.
      const many = db.prepare('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n')
      const first = many.all() as { i: number }[]
      const second = many.all() as { i: number }[]
      assert.deepStrictEqual(first, [{ i: 1 }, { i: 2 }, { i: 3 }])
      assert.notEqual(first[0], second[0])
      assert.deepStrictEqual([...many.iterate()], first)
    })

    test('errors carry better-sqlite3 codes, which errors.ts recognises', () => {
      const errorOf = (fn: () => unknown): Error & { code?: unknown } => {
        try {
          fn()
        } catch (error) {
          return error as Error & { code?: unknown }
        }
        return assert.fail('expected an error')
      }
      const insert = db.prepare('INSERT INTO parents (id, name) VALUES (?, ?)')
      insert.run([100, 'unique-name'])
      const unique = errorOf(() => insert.run([101, 'unique-name']))
      assert.equal(unique.code, 'SQLITE_CONSTRAINT_UNIQUE')
      assert.match(unique.message, /UNIQUE constraint failed: parents\.name/)
      assert.ok(isUniqueViolation(unique))
      assert.equal(errorOf(() => insert.run([100, 'other-name'])).code, 'SQLITE_CONSTRAINT_PRIMARYKEY')
      assert.ok(isForeignKeyViolation(errorOf(() => db.prepare('INSERT INTO children (parent_id) VALUES (?)').run([999]))))
      assert.equal(errorOf(() => insert.run([102, null])).code, 'SQLITE_CONSTRAINT_NOTNULL')
      assert.equal(errorOf(() => db.prepare('SELEC 1')).code, 'SQLITE_ERROR')
      assert.equal(errorOf(() => db.exec('INSERT INTO nowhere VALUES (1)')).code, 'SQLITE_ERROR')
    })

    test('inTransaction follows BEGIN and COMMIT', () => {
      assert.equal(db.inTransaction, false)
      db.prepare('BEGIN IMMEDIATE').run()
      assert.equal(db.inTransaction, true)
      db.prepare('COMMIT').run()
      assert.equal(db.inTransaction, false)
    })
  })
}

test('node:sqlite prints no ExperimentalWarning to users', { skip: !drivers.includes('node:sqlite') }, () => {
  const script =
    "import { openSqlite } from './src/core/db/sqlite-driver.ts'; const { connection } = openSqlite(':memory:'); " +
    "connection.prepare('select 1').all(); process.emitWarning('another warning still shows')"
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    encoding: 'utf8',
    env: { ...process.env, QUARTET_SQLITE_DRIVER: 'node:sqlite' }
  })
  assert.equal(result.status, 0, result.stderr)
  assert.doesNotMatch(result.stderr, /ExperimentalWarning|SQLite is an experimental/)
  assert.match(result.stderr, /another warning still shows/)
})
