import fs from 'node:fs'
import path from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { Kysely, PostgresAdapter, PostgresDialect, sql } from 'kysely'
import { GroupCommitSqliteDialect, SqliteGroupCommit } from './sqlite-group-commit.js'
import { openSqlite, type SqliteConnection, type SqliteDriverName, type SqliteStatement } from './sqlite-driver.js'
import { createLru } from '../lru.js'
import { registerRunNow } from './prepared.js'

export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  /** Untyped handle; each service narrows it to its own table types. */
  db: Kysely<any>
  dialect: Dialect
  /** The embedded SQLite's driver (better-sqlite3 or node:sqlite, by Node version); absent on PostgreSQL. */
  sqliteDriver?: SqliteDriverName
  close(): Promise<void>
}

export interface OpenDatabaseOptions {
  /** postgres://… ; when absent the embedded SQLite is used. */
  url?: string | undefined
  /** SQLite file path, or ":memory:". */
  sqlitePath?: string
  /** PostgreSQL schema to put first on the search_path (test isolation). */
  schema?: string
  poolSize?: number
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) {
    // Loaded only for PostgreSQL: the driver costs ~15 MB of memory that SQLite users never need.
    const { default: pg } = await import('pg')
    // PostgreSQL returns BIGINT (count(*), sums) as strings; our values stay far below 2^53.
    pg.types.setTypeParser(20, (value) => Number(value))
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Unbounded by default: with the server unreachable, requests would queue for ever instead of failing with 503.
      connectionTimeoutMillis: 5_000,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {})
    })
    // An unhandled 'error' (server restarted, connection cut) would crash the process — also from a client checked out,
    // whose query fails anyway; pg drops the broken client and connects anew.
    pool
      .on('error', () => {})
      .on('connect', (client) => {
        client.on('error', () => {})
        prepareMarkedStatements(client)
      })
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) })
    await sql`select 1`.execute(db)
    return { db, dialect: 'postgres', close: () => db.destroy() }
  }
  const file = options.sqlitePath ?? ':memory:'
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true })
  const { connection, driver } = openSqlite(file)
  return { ...sqliteDatabase(connection), sqliteDriver: driver }
}

const PREPARED_MARK = /^\/\* prepared:([a-z][a-z0-9_]*) \*\//

/**
 * PostgreSQL parses and plans an unnamed statement on every run. A statement whose text begins
 * with a mark such as `/* prepared:memory_version *\/` runs as a named statement of that name
 * instead: planned once per connection (a hot index read went from 317 to 89 µs). Only for
 * fixed statements: a name is bound to one text, and each connection keeps what it prepared.
 */
function prepareMarkedStatements(client: import('pg').PoolClient): void {
  const query = client.query.bind(client) as (config: unknown, values?: unknown, callback?: unknown) => unknown
  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof config === 'string' ? PREPARED_MARK.exec(config)?.[1] : undefined
    return name !== undefined ? query({ name, text: config, values }, callback) : query(config, values, callback)
  }) as typeof client.query
}

/** Quartet's Kysely stack (statement cache, group commit) over an open SQLite connection. */
export function sqliteDatabase(sqlite: SqliteConnection): Database {
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec('PRAGMA synchronous = NORMAL')
  sqlite.exec('PRAGMA foreign_keys = ON')
  sqlite.exec('PRAGMA busy_timeout = 5000')
  // Up to 32 MiB of pages (the default is 2 MiB), taken only as pages are read: a full-text search
  // over 50,000 memory entries re-read its index pages from the OS on every query (2.3 → 1.5 ms).
  sqlite.exec('PRAGMA cache_size = -32768')
  // The group commit is typed against better-sqlite3 and uses only the part of it that every
  // SqliteConnection has (prepare, run, inTransaction, readonly).
  const group = new SqliteGroupCommit(sqlite as unknown as BetterSqlite3.Database)
  const statements = withStatementCache(sqlite, group)
  const db = new Kysely<any>({ dialect: new GroupCommitSqliteDialect({ database: statements }, group) })
  // Hot reads skip Kysely's executor while no caller holds or waits for the connection
  // (prepared.ts); as on Kysely's own path, a read runs inside the open group commit, never
  // inside a caller's transaction, and after every query issued before it.
  registerRunNow(db, (sqlText, parameters) => {
    if (group.connectionClaims > 0) return undefined
    const statement = statements.prepare(sqlText)
    if (statement.reader) return statement.all(parameters)
    statement.run(parameters)
    return []
  })
  return { db, dialect: 'sqlite', close: () => db.destroy() }
}

const SCHEMA_CHANGE = /^\s*(?:create|alter|drop)\s/i

/**
 * Kysely's SQLite driver prepares every query anew, which costs more than running it. Kysely
 * runs one query at a time on this connection, so a prepared statement can be reused safely;
 * keep the most recent ones by SQL text.
 */
function withStatementCache(sqlite: SqliteConnection, group: SqliteGroupCommit, maxStatements = 500) {
  const cache = createLru<string, SqliteStatement>(maxStatements)
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      // A statement's columns are read when it is prepared (sqlite-rows.ts): after a schema
      // change through this connection, every statement is prepared anew.
      if (SCHEMA_CHANGE.test(text)) cache.clear()
      let statement = cache.get(text)
      if (!statement) {
        statement = sqlite.prepare(text)
        cache.set(text, statement)
      }
      // Kysely runs the statement right after preparing it.
      group.beforeStatement(statement as unknown as BetterSqlite3.Statement)
      return statement
    }
  }
}

/** The dialect behind a Kysely handle (migrations receive only the handle). */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/** Current time as the ISO-8601 UTC text every table stores. */
export function isoNow(clock: () => Date = () => new Date()): string {
  return clock().toISOString()
}
