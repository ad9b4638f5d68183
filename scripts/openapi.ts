import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../src/core/config/config.js'
import { openDatabase } from '../src/core/db/database.js'
import { migrateToLatest } from '../src/core/db/migrations.js'
import { silentLogger } from '../src/core/logger.js'
import { createServiceContext } from '../src/core/service-context.js'
import { availableServiceNames, allMigrationSets, configFragments, loadService } from '../src/cli/registry.js'

export const OPENAPI_DIR = path.resolve(import.meta.dirname, '..', 'openapi')

/**
 * The OpenAPI document of every built service, generated from its route schemas with default
 * settings (no PostgreSQL, no Redis, a throw-away data dir), as stable pretty JSON.
 */
export async function generateOpenApiDocuments(): Promise<Map<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-openapi-'))
  // The orchestrator serves a project: an empty throw-away one (with a fixed token, so none is minted).
  const config = loadConfig(
    { QUARTET_DATA_DIR: dataDir, LOG_LEVEL: 'silent', QUARTET_PROJECT: dataDir, QUARTET_API_TOKEN: 'openapi-generation-only-token' },
    {},
    configFragments()
  )
  const database = await openDatabase({ sqlitePath: ':memory:' })
  const documents = new Map<string, string>()
  try {
    await migrateToLatest(database.db, allMigrationSets())
    for (const name of availableServiceNames()) {
      const definition = await loadService(name)
      if (!definition) continue
      const { context, release } = await createServiceContext(definition, { config, database, logger: silentLogger() })
      const { app } = await definition.create(context)
      await app.ready()
      documents.set(definition.name, `${JSON.stringify(app.swagger(), null, 2)}\n`)
      await app.close()
      await release()
    }
  } finally {
    await database.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  return documents
}
