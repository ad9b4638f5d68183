import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationResultSet } from 'kysely'
import { dialectOf } from './database.js'

/** Each service names its migrations "<service>_<NNNN>_<what>" so they never collide. */
export type MigrationSet = Record<string, Migration>

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'MigrationError'
  }
}

/**
 * The database as the migrator sees it, on PostgreSQL: its check for its own tables lists only the
 * current schema's tables. Kysely's introspector lists every table of the server with their
 * columns, and fails ("relation … does not exist") when anyone drops a table at that moment.
 */
function withSchemaIntrospection(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    async getTables() {
      const rows = await sql<{
        name: string
        type: string
      }>`select table_name as name, table_type as type from information_schema.tables where table_schema = ${schema}`.execute(db)
      return rows.rows.map((row) => ({ name: row.name, schema, isView: row.type === 'VIEW', columns: [] }))
    },
    async getMetadata() {
      return { tables: await this.getTables() }
    }
  }
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection
      const value: unknown = Reflect.get(target, property)
      // Kysely's own methods use private fields, which a proxy as `this` would not have.
      return typeof value === 'function' ? value.bind(target) : value
    }
  })
}

/** Applies every pending migration (forward-only) and returns the names applied now. */
export async function migrateToLatest(db: Kysely<any>, sets: MigrationSet[]): Promise<string[]> {
  const all: MigrationSet = {}
  for (const set of sets) {
    for (const [name, migration] of Object.entries(set)) {
      if (all[name]) throw new MigrationError(`duplicate migration name ${name}`)
      all[name] = migration
    }
  }
  // On PostgreSQL, keep the bookkeeping tables in the current schema explicitly: Kysely otherwise
  // finds them in any schema on the server and skips creating them in ours.
  const schema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined
  const migrator = new Migrator({
    db: schema ? withSchemaIntrospection(db, schema) : db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: () => Promise.resolve(all) },
    migrationTableName: 'quartet_migrations',
    migrationLockTableName: 'quartet_migrations_lock',
    // Services gain migrations independently, so a new one may sort before an applied one.
    allowUnorderedMigrations: true
  })
  const result: MigrationResultSet = await migrator.migrateToLatest()
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new MigrationError(`migration ${failed} failed: ${String(result.error)}`, { cause: result.error })
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
