import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely'
import { dialectOf } from './database.js'

/** Each service names its migrations "<service>_<NNNN>_<what>" so they never collide. */
export type MigrationSet = Record<string, Migration>

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'MigrationError'
  }
}

const SETUP_RETRIES = 5

function isSetupRace(result: MigrationResultSet): boolean {
  const ranNothing = (result.results ?? []).length === 0
  const code = (result.error as { code?: unknown } | undefined)?.code
  return ranNothing && code === '42P01'
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
  const schema = dialectOf(db) === 'postgres'
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: () => Promise.resolve(all) },
    migrationTableName: 'quartet_migrations',
    migrationLockTableName: 'quartet_migrations_lock',
    // Services gain migrations independently, so a new one may sort before an applied one.
    allowUnorderedMigrations: true
  })
  let result: MigrationResultSet = await migrator.migrateToLatest()
  // Before it runs anything, Kysely's migrator looks for its tables by listing every table of the
  // server; another schema dropped meanwhile makes that listing fail ("relation … does not
  // exist"). Nothing has run then, so trying again is safe.
  for (let attempt = 1; attempt <= SETUP_RETRIES && result.error && isSetupRace(result); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt))
    result = await migrator.migrateToLatest()
  }
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new MigrationError(`migration ${failed} failed: ${String(result.error)}`, { cause: result.error })
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
