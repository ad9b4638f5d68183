import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { sql } from 'kysely'
import { openDatabase, type Database } from '../../src/core/db/database.js'
import { migrateToLatest, type MigrationSet } from '../../src/core/db/migrations.js'

export interface TestDatabase extends Database {
  /** PostgreSQL schema of this test database (undefined on SQLite). */
  schema: string | undefined
}

/**
 * A fresh, migrated database for one test file: in-memory SQLite by default, or, when
 * DATABASE_URL is set, a new PostgreSQL schema of its own (dropped on close) so parallel test
 * files and runs never see each other's rows.
 */
export async function createTestDatabase(migrationSets: MigrationSet[]): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL
  if (!url) {
    const database = await openDatabase({ sqlitePath: ':memory:' })
    await migrateToLatest(database.db, migrationSets)
    return { ...database, schema: undefined }
  }
  const schema = `${testSchemaPrefix('test')}${randomBytes(5).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  await admin.end()
  const database = await openDatabase({ url, schema, poolSize: 5 })
  await migrateToLatest(database.db, migrationSets)
  return {
    ...database,
    schema,
    async close() {
      await database.close()
      // Under scripts/run-tests.mjs the run's schemas are dropped when every file has finished:
      // dropping one while another file's migrator introspects all schemas makes that file fail.
      if (process.env.QUARTET_TEST_RUN) return
      const cleanup = new pg.Client({ connectionString: url })
      await cleanup.connect()
      await cleanup.query(`drop schema if exists ${schema} cascade`)
      await cleanup.end()
    }
  }
}

/** Schema names of one test run share a prefix, so the runner can drop exactly its own. */
export function testSchemaPrefix(kind: string): string {
  const run = process.env.QUARTET_TEST_RUN
  return run ? `${kind}_${run}_` : `${kind}_${Date.now().toString(36)}_`
}

/** Every row of every table (except migration bookkeeping), to prove a rejected request wrote nothing. */
/**
 * Append-only logs that record every request, rejected ones included (that is their job): left out
 * of "nothing was written" snapshots unless a test asks for them.
 */
export const APPEND_ONLY_TABLES: readonly string[] = ['orch_audit_log']

export async function snapshotTables(database: Database, prefix: string, exclude: readonly string[] = APPEND_ONLY_TABLES): Promise<string> {
  // Kysely's introspection reads every schema on the server (and fails when another test file
  // drops its schema meanwhile); on PostgreSQL list only this database's own schema.
  const schema = (database as Partial<TestDatabase>).schema
  const all = schema
    ? (
        await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(
          database.db
        )
      ).rows.map((r) => r.name)
    : (await database.db.introspection.getTables()).map((t) => t.name)
  const names = all.filter((n) => n.startsWith(prefix) && !exclude.includes(n)).sort()
  const parts: string[] = []
  for (const name of names) {
    // Not every table has an id column: order rows by their content instead.
    const rows = (await database.db.selectFrom(name).selectAll().execute()).map((row) => JSON.stringify(row)).sort()
    parts.push(`${name}:${rows.join(',')}`)
  }
  return parts.join('\n')
}
