import path from 'node:path'
import { ConfigError, loadConfig, type Config, type ConfigOverrides } from '../core/config/config.js'
import type { ConfigFragment } from '../core/config/schema.js'
import { openDatabase, type Database } from '../core/db/database.js'
import { migrateToLatest } from '../core/db/migrations.js'
import { createLogger } from '../core/logger.js'
import type { CliRuntime } from '../core/service.js'
import { allMigrationSets } from './registry.js'

/** Loads config (base settings plus the given services' fragments) or exits with the one message listing every bad key. */
export function loadConfigOrExit(
  overrides: ConfigOverrides = {},
  fragments: readonly ConfigFragment<any, any>[] = [],
  report: (error: ConfigError) => void = (error) => {
    process.stderr.write(`${error.message}\n`)
  }
): Config {
  try {
    return loadConfig(process.env, overrides, fragments)
  } catch (error) {
    if (error instanceof ConfigError) {
      report(error)
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

export const cliRuntime: CliRuntime = {
  loadConfig: loadConfigOrExit,
  openDatabase: openMigratedDatabase,
  createLogger: (level) => createLogger(level)
}
