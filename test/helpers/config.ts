import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig, type Config } from '../../src/core/config/config.js'
import { configFragments } from '../../src/cli/registry.js'
import { silentLogger } from '../../src/core/logger.js'
import { createServiceContext } from '../../src/core/service-context.js'
import type { Database } from '../../src/core/db/database.js'
import type { ServiceContext, ServiceDefinition, StartedService } from '../../src/core/service.js'

/** A validated config of every service for tests: a throw-away data dir, plus the given environment settings. */
export function testConfig(env: Record<string, string | undefined> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-test-'))
  return loadConfig({ QUARTET_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }, {}, configFragments())
}

/**
 * Builds a service through its own definition — the wiring `quartet serve` ships — on a test
 * database, with single parts of the context replaced (a movable clock, …). `release` frees what
 * the context opened (Redis connections); the caller closes the app.
 */
export async function buildService<S extends { port: number }>(
  definition: ServiceDefinition<S>,
  config: Config,
  database: Database,
  overrides: Partial<Omit<ServiceContext<S>, 'config' | 'database' | 'logger'>> = {}
): Promise<StartedService & { release(): Promise<void> }> {
  const { context, release } = await createServiceContext(definition, { config, database, logger: silentLogger() }, overrides)
  const started = await definition.create(context)
  return { ...started, release }
}
