import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { createTestDatabase } from '../helpers/db.js'

test(
  'PostgreSQL (skipped without DATABASE_URL): a statement marked prepared runs as a named statement, ' +
    'planned once per connection; others stay unnamed',
  { skip: process.env.DATABASE_URL ? false : 'DATABASE_URL is unset' },
  async (t) => {
    const database = await createTestDatabase([])
    t.after(() => database.close())
    const results = await database.db.connection().execute(async (connection) => {
      const answers: number[] = []
      for (const value of [1, 2, 3]) {
        const rows = await sql<{ doubled: number }>`/* prepared:test_doubled */ select ${value}::int * 2 as doubled`.execute(connection)
        answers.push(rows.rows[0]!.doubled)
      }
      await sql`select 41 + 1 as unnamed`.execute(connection)
      const prepared = await sql<{
        name: string
        statement: string
      }>`select name, statement from pg_prepared_statements order by name`.execute(connection)
      return { answers, prepared: prepared.rows }
    })
    assert.deepEqual(results.answers, [2, 4, 6], 'each run binds its own parameters')
    assert.deepEqual(
      results.prepared.map((row) => row.name),
      ['test_doubled']
    )
    assert.match(results.prepared[0]!.statement, /^\/\* prepared:test_doubled \*\/ select \$1::int \* 2/)
  }
)
