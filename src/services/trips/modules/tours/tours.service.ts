import type { Static } from 'typebox'
import type { Access, Caller } from '../../access.js'
import type { TourRow } from '../../db.js'
import type { CreateTourBody, UpdateTourBody } from './tours.schemas.js'
import type { UsersRepository } from '../users/users.repository.js'
import type { ToursRepository } from './tours.repository.js'
import { tripsError } from '../../errors.js'

export interface ToursServiceDeps {
  tours: ToursRepository
  users: Pick<UsersRepository, 'findById'>
  access: Access
  now: () => string
}

const LOCAL_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/

/** YYYY-MM-DD of the given date or timestamp (timestamps are taken at their UTC date); 422 when it is no real date. */
export function normaliseTourDate(value: string): string {
  const plain = /^\d{4}-\d{2}-\d{2}$/.test(value)
  const timestamp = value.replace(' ', 'T')
  // A timestamp without an offset is UTC: new Date() would read it in the server's time zone.
  const parsed = new Date(plain ? `${value}T00:00:00Z` : LOCAL_TIMESTAMP.test(timestamp) ? `${timestamp}Z` : timestamp)
  const day = Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString().slice(0, 10)
  // new Date() rolls 2021-02-30 over to March; a real date survives the round trip. An offset can
  // also move a timestamp out of years 0000-9999, where toISOString() writes "+010000-01-01…".
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day) || (plain && day !== value)) {
    throw tripsError('TRIPS_VALIDATION_FAILED', undefined, {
      details: [{ pointer: '/date', message: `date ${JSON.stringify(value)} is not a valid date` }]
    })
  }
  return day
}

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0)

export function createToursService({ tours, users, access, now }: ToursServiceDeps) {
  return {
    async create(caller: Caller, input: Static<typeof CreateTourBody>, pathUserId?: number): Promise<TourRow> {
      const creatorId = input.creator_id ?? pathUserId
      if (creatorId === undefined) {
        throw tripsError('TRIPS_VALIDATION_FAILED', undefined, {
          details: [{ pointer: '/creator_id', message: "creator_id must have required property 'creator_id'" }]
        })
      }
      const creator = await users.findById(creatorId)
      // A caller without a user is refused before anything else is said; a creator who is the
      // caller proves the caller has one, so the lookup runs only on the other paths.
      if (!creator || !access.isCaller(caller, creator)) await access.viewerId(caller)
      if (!creator) throw tripsError('TRIPS_USER_NOT_FOUND', `No user with id ${creatorId} to create the tour for.`)
      await access.assertCreator(caller, creator)
      const at = now()
      return tours.insertWithCreatorLink(
        {
          date: normaliseTourDate(input.date),
          location: input.location,
          creator_id: creator.id,
          complete: flag(input.complete) ?? 0,
          created_at: at,
          updated_at: at
        },
        at
      )
    },

    get: (caller: Caller, id: number) => access.readableTour(caller, id),

    async update(caller: Caller, id: number, patch: Static<typeof UpdateTourBody>): Promise<TourRow> {
      await access.updatableTour(caller, id, patch.creator_id)
      const changes = {
        ...(patch.date !== undefined ? { date: normaliseTourDate(patch.date) } : {}),
        ...(patch.location !== undefined ? { location: patch.location } : {}),
        ...(patch.creator_id !== undefined ? { creator_id: patch.creator_id } : {}),
        ...(patch.complete !== undefined ? { complete: flag(patch.complete) } : {}),
        updated_at: now()
      }
      const updated = await tours.update(id, changes)
      if (!updated) throw tripsError('TRIPS_TOUR_NOT_FOUND')
      return updated
    },

    async delete(caller: Caller, id: number): Promise<void> {
      await access.ownedTour(caller, id)
      if (!(await tours.delete(id))) throw tripsError('TRIPS_TOUR_NOT_FOUND')
    },

    /** Tours the user created or joined; a caller sees only those they share with that user. */
    async listForUser(caller: Caller, userId: number): Promise<TourRow[]> {
      const viewer = await access.viewerId(caller)
      const user = await users.findById(userId)
      if (!user) throw tripsError('TRIPS_USER_NOT_FOUND')
      return tours.listForUser(userId, viewer)
    }
  }
}
export type ToursService = ReturnType<typeof createToursService>
