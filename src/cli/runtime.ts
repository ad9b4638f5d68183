import path from 'node:path'
import { ConfigError, loadConfig, type Config, type ConfigOverrides } from '../core/config/config.js'
import type { ConfigFragment } from '../core/config/schema.js'
import { openDatabase, type Database } from '../core/db/database.js'
import { migrateToLatest } from '../core/db/migrations.js'
import { createLogger } from '../core/logger.js'
import type { CliRuntime } from '../core/service.js'
import { allMigrationSets } from './registry.js'

/**
 * A project named with --project (or QUARTET_PROJECT) keeps its data in <project>/.quartet unless a
 * data dir is given: a server started from another directory then opens the same database as the
 * CLI run inside the project, instead of one in its own working directory.
 */
export function withProjectDataDir(overrides: ConfigOverrides, env: NodeJS.ProcessEnv = process.env): ConfigOverrides {
  if (overrides.QUARTET_DATA_DIR !== undefined || env.QUARTET_DATA_DIR !== undefined) return overrides
  const project = overrides.QUARTET_PROJECT ?? env.QUARTET_PROJECT
  if (project === undefined) return overrides
  return { ...overrides, QUARTET_DATA_DIR: path.join(path.resolve(String(project)), '.quartet') }
}

/** Loads config (base settings plus the given services' fragments) or exits with the one message listing every bad key. */
export function loadConfigOrExit(
  overrides: ConfigOverrides = {},
  fragments: readonly ConfigFragment<any, any>[] = [],
  report: (error: ConfigError) => void = (error) => {
    process.stderr.write(`${error.message}\n`)
  }
): Config {
  try {
    return loadConfig(process.env, withProjectDataDir(overrides), fragments)
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
