import { isForeignKeyViolation, isUniqueViolation } from '../../../../core/db/errors.js'
import type { Access, Caller } from '../../access.js'
import type { TourUserRow, UserRow } from '../../db.js'
import type { UsersRepository } from '../users/users.repository.js'
import type { MembersRepository } from './members.repository.js'
import { tripsError } from '../../errors.js'

export interface MembersServiceDeps {
  members: MembersRepository
  users: Pick<UsersRepository, 'findByEmail' | 'findById'>
  access: Access
  now: () => string
}

export type MembersListing = { kind: 'links'; links: TourUserRow[] } | { kind: 'users'; users: UserRow[] }

export function createMembersService({ members, users, access, now }: MembersServiceDeps) {
  return {
    /** Adds the user with this e-mail to the tour; only members may add members. */
    async add(caller: Caller, input: { email_address: string; tour_id: number }): Promise<TourUserRow> {
      await access.readableTour(caller, input.tour_id)
      const user = await users.findByEmail(input.email_address.trim())
      const unknownUser = () =>
        tripsError('TRIPS_MEMBER_USER_UNKNOWN', `User must exist: no user has the e-mail address ${input.email_address}`, {
          details: [{ pointer: '/email_address', message: `User must exist: no user has the e-mail address ${input.email_address}` }]
        })
      if (!user) throw unknownUser()
      try {
        return await members.insert(input.tour_id, user.id, now())
      } catch (error) {
        if (isUniqueViolation(error))
          throw tripsError('TRIPS_MEMBER_EXISTS', undefined, {
            details: [{ pointer: '/email_address', message: 'User Tour relationship already exists' }]
          })
        if (isForeignKeyViolation(error)) {
          // The tour (404 from the re-check) or the user was deleted after the checks above.
          await access.readableTour(caller, input.tour_id)
          throw unknownUser()
        }
        throw error
      }
    },

    /**
     * ?user_id= lists that user's links (the seed); ?tour_id= alone lists the tour's users, creator
     * first (the original client). A caller sees only tours they belong to.
     */
    async list(caller: Caller, query: { user_id?: number | undefined; tour_id?: number | undefined }): Promise<MembersListing> {
      if (query.user_id !== undefined) {
        const viewerId = await access.viewerId(caller)
        if (!(await users.findById(query.user_id))) throw tripsError('TRIPS_USER_NOT_FOUND')
        const links = await members.linksOfUser(query.user_id, { tourId: query.tour_id, viewerId })
        return { kind: 'links', links }
      }
      if (query.tour_id !== undefined) {
        await access.readableTour(caller, query.tour_id)
        return { kind: 'users', users: await members.usersOfTour(query.tour_id) }
      }
      throw tripsError('TRIPS_VALIDATION_FAILED', 'user_id or tour_id is required', {
        details: [{ pointer: '/user_id', message: 'user_id or tour_id is required' }]
      })
    }
  }
}
export type MembersService = ReturnType<typeof createMembersService>
