import type { MigrationSet } from '../../../core/db/migrations.js'
import { initMigration } from './0001-init.js'

export const feedMigrations: MigrationSet = {
  feed_0001_init: initMigration
}
