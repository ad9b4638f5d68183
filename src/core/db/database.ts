import fs from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, PostgresAdapter, PostgresDialect, sql } from 'kysely'
import { GroupCommitSqliteDialect, SqliteGroupCommit } from './sqlite-group-commit.js'

export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  /** Untyped handle; each service narrows it to its own table types. */
  db: Kysely<any>
  dialect: Dialect
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
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {})
    })
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) })
    await sql`select 1`.execute(db)
    return { db, dialect: 'postgres', close: () => db.destroy() }
  }
  const file = options.sqlitePath ?? ':memory:'
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true })
  const sqlite = new BetterSqlite3(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const group = new SqliteGroupCommit(sqlite)
  const db = new Kysely<any>({ dialect: new GroupCommitSqliteDialect({ database: withStatementCache(sqlite, group) }, group) })
  return { db, dialect: 'sqlite', close: () => db.destroy() }
}

/**
 * Kysely's SQLite driver prepares every query anew, which costs more than running it. Kysely
 * runs one query at a time on this connection, so a prepared statement can be reused safely;
 * keep the most recent ones by SQL text.
 */
function withStatementCache(sqlite: BetterSqlite3.Database, group: SqliteGroupCommit, maxStatements = 500) {
  const cache = new Map<string, BetterSqlite3.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text)
      if (statement) {
        // Refresh recency: Map iteration order is insertion order.
        cache.delete(text)
      } else {
        statement = sqlite.prepare(text)
        if (cache.size >= maxStatements) {
          const oldest = cache.keys().next().value
          if (oldest !== undefined) cache.delete(oldest)
        }
      }
      cache.set(text, statement)
      // Kysely runs the statement right after preparing it.
      group.beforeStatement(statement)
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
