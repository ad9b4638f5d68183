import type { CreateTableBuilder, Kysely } from 'kysely'
import { dialectOf } from './database.js'

/**
 * Conventions every migration follows so one migration set serves SQLite and PostgreSQL:
 * integer ids from addIdColumn, timestamps as ISO-8601 UTC text, booleans as integer 0/1,
 * JSON as text, money as integer minor units or decimal text.
 */
export function addIdColumn<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return dialectOf(db) === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}
