import path from 'node:path'
import { ConfigError, loadConfig, type Config, type ConfigOverrides } from '../core/config/config.js'
import { openDatabase, type Database } from '../core/db/database.js'
import { migrateToLatest } from '../core/db/migrations.js'
import { allMigrationSets } from './registry.js'

/** Loads config or exits with the one message listing every bad key. */
export function loadConfigOrExit(overrides: ConfigOverrides = {}): Config {
  try {
    return loadConfig(process.env, overrides)
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(2)
    }
    throw error
  }
}

/** Opens the configured database (PostgreSQL if DATABASE_URL, else SQLite in the data dir) and migrates it. */
export async function openMigratedDatabase(config: Config): Promise<Database> {
  const database = await openDatabase({ url: config.databaseUrl, sqlitePath: path.join(config.dataDir, 'quartet.db') })
  try {
    await migrateToLatest(database.db, allMigrationSets())
  } catch (error) {
    await database.close()
    throw error
  }
  return database
}
