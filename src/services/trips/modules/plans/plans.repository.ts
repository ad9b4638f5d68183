import type { Insertable, Updateable } from 'kysely'
import type { PlanRow, PlansTable, TripsDb } from '../../db.js'

export function createPlansRepository(db: TripsDb) {
  return {
    findById(id: number): Promise<PlanRow | undefined> {
      return db.selectFrom('trips_plans').selectAll().where('id', '=', id).executeTakeFirst()
    },
    listForTour(tourId: number): Promise<PlanRow[]> {
      return db.selectFrom('trips_plans').selectAll().where('tour_id', '=', tourId).orderBy('id').execute()
    },
    insert(values: Insertable<PlansTable>): Promise<PlanRow> {
      return db.insertInto('trips_plans').values(values).returningAll().executeTakeFirstOrThrow()
    },
    update(id: number, values: Updateable<PlansTable>): Promise<PlanRow | undefined> {
      return db.updateTable('trips_plans').set(values).where('id', '=', id).returningAll().executeTakeFirst()
    },
    async delete(id: number): Promise<boolean> {
      const result = await db.deleteFrom('trips_plans').where('id', '=', id).executeTakeFirst()
      return result.numDeletedRows > 0n
    }
  }
}
export type PlansRepository = ReturnType<typeof createPlansRepository>
