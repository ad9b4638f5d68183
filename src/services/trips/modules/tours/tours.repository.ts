import type { Insertable, Updateable } from 'kysely'
import { compileQuery, prepareQuery } from '../../../../core/db/prepared.js'
import type { TourRow, ToursTable, TripsDb } from '../../db.js'
import { linkedTourSharedWith } from '../../db.js'

export function createToursRepository(db: TripsDb) {
  const byId = prepareQuery(db, 1, (id: number) => db.selectFrom('trips_tours').selectAll().where('id', '=', id))
  const ofUser = prepareQuery(db, 1, (userId: number) =>
    db
      .selectFrom('trips_tour_users as link')
      .innerJoin('trips_tours as tour', 'tour.id', 'link.tour_id')
      .selectAll('tour')
      .where('link.user_id', '=', userId)
      .orderBy('link.id')
  )
  // The create path runs these inside its transaction: compiled once, run on the transaction.
  const insertTour = compileQuery(
    db,
    6,
    (date: string, location: string, creatorId: number, complete: number, createdAt: string, updatedAt: string) =>
      db
        .insertInto('trips_tours')
        .values({ date, location, creator_id: creatorId, complete, created_at: createdAt, updated_at: updatedAt })
        .returningAll()
  )
  const insertLink = compileQuery(db, 3, (tourId: number, userId: number, createdAt: string) =>
    db.insertInto('trips_tour_users').values({ tour_id: tourId, user_id: userId, created_at: createdAt })
  )
  return {
    async findById(id: number): Promise<TourRow | undefined> {
      return (await byId(id))[0]
    },
    /** Creates the tour and links its creator as the first member, atomically. */
    insertWithCreatorLink(values: Insertable<ToursTable>, createdAt: string): Promise<TourRow> {
      return db.transaction().execute(async (trx) => {
        const inserted = await insertTour(
          trx,
          values.date,
          values.location,
          values.creator_id,
          values.complete ?? 0,
          values.created_at,
          values.updated_at
        )
        const tour = inserted.rows[0] as TourRow
        await insertLink(trx, tour.id, values.creator_id, createdAt)
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
      return db
        .selectFrom('trips_tour_users as link')
        .innerJoin('trips_tours as tour', 'tour.id', 'link.tour_id')
        .selectAll('tour')
        .where('link.user_id', '=', userId)
        .where(linkedTourSharedWith(viewerId))
        .orderBy('link.id')
        .execute()
    }
  }
}
export type ToursRepository = ReturnType<typeof createToursRepository>
