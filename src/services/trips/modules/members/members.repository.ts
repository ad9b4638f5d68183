import { linkedTourSharedWith } from '../../db.js'
import { prepareQuery } from '../../../../core/db/prepared.js'
import type { TourUserRow, TripsDb, UserRow } from '../../db.js'

export function createMembersRepository(db: TripsDb) {
  // Runs on every tour and plan request: prepared once.
  const tourWithMembershipQuery = prepareQuery(db, 3, (tourId: number, emailKey: string, sameEmailKey: string) =>
    db
      .selectFrom('trips_tours as tour')
      .selectAll('tour')
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('trips_tour_users as link')
              .innerJoin('trips_users as user', 'user.id', 'link.user_id')
              .select('link.id')
              .whereRef('link.tour_id', '=', 'tour.id')
              .where('user.email_key', '=', emailKey)
          )
          .as('is_member')
      )
      .select((eb) => eb.selectFrom('trips_users as me').select('me.id').where('me.email_key', '=', sameEmailKey).as('viewer_id'))
      .where('tour.id', '=', tourId)
  )

  return {
    /** The tour and whether the user with this e-mail belongs to it, in one query. */
    async tourWithMembership(tourId: number, email: string) {
      const key = email.toLowerCase()
      const [row] = await tourWithMembershipQuery(tourId, key, key)
      if (!row) return undefined
      const { is_member, viewer_id, ...tour } = row
      return { tour, isMember: Boolean(is_member), viewerId: viewer_id ?? undefined }
    },
    /** Whether the two users are members of at least one common tour. */
    async shareATour(userId: number, otherId: number): Promise<boolean> {
      const row = await db
        .selectFrom('trips_tour_users as mine')
        .innerJoin('trips_tour_users as theirs', 'theirs.tour_id', 'mine.tour_id')
        .select('mine.id')
        .where('mine.user_id', '=', userId)
        .where('theirs.user_id', '=', otherId)
        .limit(1)
        .executeTakeFirst()
      return row !== undefined
    },
    /** Inserts the link; a duplicate pair fails on the UNIQUE constraint (callers map it). */
    insert(tourId: number, userId: number, createdAt: string): Promise<TourUserRow> {
      return db
        .insertInto('trips_tour_users')
        .values({ tour_id: tourId, user_id: userId, created_at: createdAt })
        .returningAll()
        .executeTakeFirstOrThrow()
    },
    /** Users of a tour, the creator first (links in insertion order). */
    usersOfTour(tourId: number): Promise<UserRow[]> {
      return db
        .selectFrom('trips_tour_users as link')
        .innerJoin('trips_users as user', 'user.id', 'link.user_id')
        .selectAll('user')
        .where('link.tour_id', '=', tourId)
        .orderBy('link.id')
        .execute()
    },
    /** Links of a user, optionally limited to one tour and to tours `viewerId` also belongs to. */
    linksOfUser(userId: number, options: { tourId?: number | undefined; viewerId?: number | undefined } = {}): Promise<TourUserRow[]> {
      let query = db.selectFrom('trips_tour_users as link').selectAll('link').where('link.user_id', '=', userId)
      if (options.tourId !== undefined) query = query.where('link.tour_id', '=', options.tourId)
      if (options.viewerId !== undefined && options.viewerId !== userId) query = query.where(linkedTourSharedWith(options.viewerId))
      return query.orderBy('link.id').execute()
    }
  }
}
export type MembersRepository = ReturnType<typeof createMembersRepository>
