import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig, type Config } from '../../src/core/config/config.js'

/** A validated config for tests: a throw-away data dir, plus the given environment settings. */
export function testConfig(env: Record<string, string | undefined> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-test-'))
  return loadConfig({ QUARTET_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env })
}
