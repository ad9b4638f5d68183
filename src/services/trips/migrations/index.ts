import type { MigrationSet } from '../../../core/db/migrations.js'
import { initMigration } from './0001-init.js'

export const tripsMigrations: MigrationSet = {
  trips_0001_init: initMigration
}
