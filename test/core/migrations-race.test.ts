import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { openDatabase } from '../../src/core/db/database.js'
import { migrateToLatest, type MigrationSet } from '../../src/core/db/migrations.js'
import { testSchemaPrefix } from '../helpers/db.js'

const url = process.env.DATABASE_URL
const skip = url ? false : 'PostgreSQL only (DATABASE_URL)'

const MIGRATIONS: MigrationSet = {
  race_0001_items: {
    up: async (db) => {
      await db.schema
        .createTable('race_items')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .execute()
    }
  }
}

// Kysely's migrator lists every table of the server before it runs anything; a table dropped by
// someone else at that moment (another test file, another service's migration) made it fail.
test('migrations succeed while other connections create and drop tables in other schemas', { skip, timeout: 120_000 }, async () => {
  const churnSchema = `${testSchemaPrefix('test')}churn_${randomBytes(4).toString('hex')}`
  const churn = new pg.Client({ connectionString: url })
  await churn.connect()
  await churn.query(`create schema ${churnSchema}`)
  let stop = false
  const churning = (async () => {
    for (let i = 0; !stop; i++) {
      await churn.query(`create table ${churnSchema}.t${i % 20} (id int, a text, b text)`)
      await churn.query(`drop table ${churnSchema}.t${i % 20}`)
    }
  })()
  const schemas: string[] = []
  try {
    for (let round = 0; round < 40; round++) {
      const schema = `${testSchemaPrefix('test')}race_${randomBytes(4).toString('hex')}`
      schemas.push(schema)
      await churn.query(`create schema ${schema}`)
      const database = await openDatabase({ url, schema, poolSize: 2 })
      try {
        assert.deepEqual(await migrateToLatest(database.db, [MIGRATIONS]), ['race_0001_items'])
        await sql`select count(*) from race_items`.execute(database.db)
      } finally {
        await database.close()
      }
    }
  } finally {
    stop = true
    await churning
    for (const schema of [churnSchema, ...schemas]) await churn.query(`drop schema if exists ${schema} cascade`)
    await churn.end()
  }
})
