import type { Insertable, Updateable } from 'kysely'
import { prepareQuery } from '../../../../core/db/prepared.js'
import type { TourRow, ToursTable, TripsDb } from '../../db.js'

export function createToursRepository(db: TripsDb) {
  const byId = prepareQuery(db, 1, (id: number) => db.selectFrom('trips_tours').selectAll().where('id', '=', id))
  const ofUser = prepareQuery(db, 1, (userId: number) =>
    db.selectFrom('trips_tour_users as link')
      .innerJoin('trips_tours as tour', 'tour.id', 'link.tour_id')
      .selectAll('tour')
      .where('link.user_id', '=', userId)
      .orderBy('link.id'))
  return {
    async findById(id: number): Promise<TourRow | undefined> {
      return (await byId(id))[0]
    },
    /** Creates the tour and links its creator as the first member, atomically. */
    insertWithCreatorLink(values: Insertable<ToursTable>, createdAt: string): Promise<TourRow> {
      return db.transaction().execute(async (trx) => {
        const tour = await trx.insertInto('trips_tours').values(values).returningAll().executeTakeFirstOrThrow()
        await trx.insertInto('trips_tour_users').values({ tour_id: tour.id, user_id: values.creator_id, created_at: createdAt }).execute()
        return tour
      })
    },
    update(id: number, values: Updateable<ToursTable>): Promise<TourRow | undefined> {
      return db.updateTable('trips_tours').set(values).where('id', '=', id).returningAll().executeTakeFirst()
    },
    /** Deletes the tour; its plans and member links go with it (ON DELETE CASCADE). */
    async delete(id: number): Promise<boolean> {
      const result = await db.deleteFrom('trips_tours').where('id', '=', id).executeTakeFirst()
      return result.numDeletedRows > 0n
    },
    /** Tours the user created or joined, in the order they joined; optionally only those `viewerId` also belongs to. */
    listForUser(userId: number, viewerId?: number): Promise<TourRow[]> {
      if (viewerId === undefined || viewerId === userId) return ofUser(userId)
      let query = db
        .selectFrom('trips_tour_users as link')
        .innerJoin('trips_tours as tour', 'tour.id', 'link.tour_id')
        .selectAll('tour')
        .where('link.user_id', '=', userId)
      if (viewerId !== undefined && viewerId !== userId) {
        query = query.where((eb) =>
          eb.exists(eb.selectFrom('trips_tour_users as mine').select('mine.id')
            .whereRef('mine.tour_id', '=', 'tour.id').where('mine.user_id', '=', viewerId)))
      }
      return query.orderBy('link.id').execute()
    }
  }
}
export type ToursRepository = ReturnType<typeof createToursRepository>
