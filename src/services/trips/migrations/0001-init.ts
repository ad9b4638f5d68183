import type { Kysely, Migration } from 'kysely'
import { addIdColumn } from '../../../core/db/schema-helpers.js'

export const initMigration: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable('trips_users'))
      .addColumn('user_name', 'text', (c) => c.notNull())
      .addColumn('email_address', 'text', (c) => c.notNull())
      // Lower-cased e-mail: lookups and uniqueness are case-insensitive.
      .addColumn('email_key', 'text', (c) => c.notNull().unique())
      .addColumn('emergency_contact_name', 'text', (c) => c.notNull())
      .addColumn('emergency_number', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()

    await addIdColumn(db, db.schema.createTable('trips_tours'))
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('location', 'text', (c) => c.notNull())
      // No foreign key: the tour outlives its creator's account, as in the original.
      .addColumn('creator_id', 'integer', (c) => c.notNull())
      .addColumn('complete', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()

    let plans = addIdColumn(db, db.schema.createTable('trips_plans')).addColumn('tour_id', 'integer', (c) =>
      c.notNull().references('trips_tours.id').onDelete('cascade')
    )
    for (const field of [
      'hazard_weather',
      'hazard_avalanche',
      'hazard_summary',
      'route_preview',
      'route_alternative',
      'emergency_plan',
      'debrief_conditions',
      'debrief_decisions',
      'debrief_plan'
    ]) {
      plans = plans.addColumn(field, 'text', (c) => c.notNull())
    }
    await plans
      .addColumn('checklist', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('departure_check', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('trips_plans_tour').on('trips_plans').column('tour_id').execute()

    await addIdColumn(db, db.schema.createTable('trips_tour_users'))
      .addColumn('tour_id', 'integer', (c) => c.notNull().references('trips_tours.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('trips_users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('trips_tour_users_pair', ['tour_id', 'user_id'])
      .execute()
    await db.schema.createIndex('trips_tour_users_user').on('trips_tour_users').columns(['user_id', 'tour_id']).execute()
  }
}
