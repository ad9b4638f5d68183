import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationResultSet } from 'kysely'
import { dialectOf } from './database.js'

export interface ServiceMigration extends Migration {
  /**
   * Names this migration was recorded under before it was renamed: databases that ran it under
   * one of them have that row of quartet_migrations renamed before migrating, so it is not run
   * again (and the migrator does not fail on an applied migration it no longer knows).
   */
  renamedFrom?: readonly string[]
}

/**
 * A service's migrations, named "<service>_<NNNN>_<what>" (numbers unique and consecutive per
 * service), each from its own file src/services/<service>/migrations/<NNNN>-<what>.ts.
 */
export type MigrationSet = Record<string, ServiceMigration>

const MIGRATION_TABLE = 'quartet_migrations'

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
  const renames = renamesOf(all)
  // On PostgreSQL, keep the bookkeeping tables in the current schema explicitly: Kysely otherwise
  // finds them in any schema on the server and skips creating them in ours.
  const schema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined
  await renameRecorded(db, schema, renames)
  const migrator = new Migrator({
    db: schema ? withSchemaIntrospection(db, schema) : db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: () => Promise.resolve(all) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: `${MIGRATION_TABLE}_lock`,
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

/** Old name → current name, from every migration's `renamedFrom`. */
function renamesOf(all: MigrationSet): Map<string, string> {
  const renames = new Map<string, string>()
  for (const [name, migration] of Object.entries(all)) {
    for (const old of migration.renamedFrom ?? []) {
      const claimant = all[old] ? old : renames.get(old)
      if (claimant !== undefined) throw new MigrationError(`${name} is renamed from ${old}, which is also the name of ${claimant}`)
      renames.set(old, name)
    }
  }
  return renames
}

/**
 * Renames the recorded rows of renamed migrations, in one transaction, before the migrator reads
 * them. Only names present are renamed, so a fresh database and one renamed before are left alone,
 * and two processes starting together rename once (the second finds no old name left).
 */
async function renameRecorded(db: Kysely<any>, schema: string | undefined, renames: Map<string, string>): Promise<void> {
  if (renames.size === 0 || !(await migrationTableExists(db, schema))) return
  await db.transaction().execute(async (trx) => {
    const table = schema ? trx.withSchema(schema) : trx
    for (const [old, name] of renames) {
      await table
        .updateTable(MIGRATION_TABLE)
        .set({ name })
        .where('name', '=', old)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom(MIGRATION_TABLE).select('name').where('name', '=', name))))
        .execute()
    }
    // An old name still recorded now means the new one was recorded as well: which row is right is not ours to guess.
    const left = await table
      .selectFrom(MIGRATION_TABLE)
      .select('name')
      .where('name', 'in', [...renames.keys()])
      .execute()
    if (left.length > 0) {
      const both = left.map((row: { name: string }) => `${row.name} and ${renames.get(row.name)}`).join(', ')
      throw new MigrationError(`${MIGRATION_TABLE} records both ${both}: remove the row of the old name by hand`)
    }
  })
}

async function migrationTableExists(db: Kysely<any>, schema: string | undefined): Promise<boolean> {
  const found = schema
    ? await sql`select 1 from information_schema.tables where table_schema = ${schema} and table_name = ${MIGRATION_TABLE}`.execute(db)
    : await sql`select 1 from sqlite_master where type = 'table' and name = ${MIGRATION_TABLE}`.execute(db)
  return found.rows.length > 0
}
