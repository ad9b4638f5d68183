import type { MigrationSet } from '../../../core/db/migrations.js'
import { initMigration } from './0001-init.js'
import { readVersionsMigration } from './0002-read-versions.js'

export const marketplaceMigrations: MigrationSet = {
  marketplace_0001_init: initMigration,
  marketplace_0002_read_versions: readVersionsMigration
}
