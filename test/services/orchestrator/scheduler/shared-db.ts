import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase, type Database } from '../../../../src/core/db/database.js'
import { migrateToLatest } from '../../../../src/core/db/migrations.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import { createTestDatabase } from '../../../helpers/db.js'

/**
 * A database that a job process can open too: a SQLite file in a temp dir, or (with
 * DATABASE_URL) this test's own PostgreSQL schema. `env` tells the job entry how to open it.
 */
export async function createSharedDatabase(): Promise<{ database: Database; env: Record<string, string>; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-jobs-'))
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase([orchestratorMigrations])
    return { database, dir, env: { TEST_DB_URL: process.env.DATABASE_URL, TEST_DB_SCHEMA: database.schema! } }
  }
  const sqlitePath = path.join(dir, 'state.db')
  const database = await openDatabase({ sqlitePath })
  await migrateToLatest(database.db, [orchestratorMigrations])
  return { database, dir, env: { TEST_DB_SQLITE: sqlitePath } }
}
