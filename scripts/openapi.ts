import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../src/core/config/config.js'
import { openDatabase } from '../src/core/db/database.js'
import { migrateToLatest } from '../src/core/db/migrations.js'
import { silentLogger } from '../src/core/logger.js'
import { availableServiceNames, allMigrationSets, loadService } from '../src/cli/registry.js'

export const OPENAPI_DIR = path.resolve(import.meta.dirname, '..', 'openapi')

/**
 * The OpenAPI document of every built service, generated from its route schemas with default
 * settings (no PostgreSQL, no Redis, a throw-away data dir), as stable pretty JSON.
 */
export async function generateOpenApiDocuments(): Promise<Map<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-openapi-'))
  const config = loadConfig({ QUARTET_DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
  const database = await openDatabase({ sqlitePath: ':memory:' })
  const documents = new Map<string, string>()
  try {
    await migrateToLatest(database.db, allMigrationSets())
    for (const name of availableServiceNames()) {
      const definition = await loadService(name)
      if (!definition) continue
      const { app } = await definition.create({ config, database, logger: silentLogger(), clock: () => new Date() })
      await app.ready()
      documents.set(definition.name, `${JSON.stringify(app.swagger(), null, 2)}\n`)
      await app.close()
    }
  } finally {
    await database.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  return documents
}
