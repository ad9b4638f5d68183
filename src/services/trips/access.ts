import type { TourRow, UserRow } from './db.js'
import type { MembersRepository } from './modules/members/members.repository.js'
import type { UsersRepository } from './modules/users/users.repository.js'
import { tripsError, tripsErrors } from './errors.js'

/** The verified principal: the e-mail claim of the bearer token. */
export interface Caller {
  email: string
}

export interface AccessDeps {
  users: Pick<UsersRepository, 'findByEmail'>
  members: Pick<MembersRepository, 'tourWithMembership' | 'shareATour' | 'linksOfUser'>
  /** "owner" enforces the ownership rules; "open" is the original's no-ownership behaviour. */
  authz: 'owner' | 'open'
}

/**
 * Ownership rules, in one place: a caller acts as the user with their token's e-mail; tour
 * members read and change a tour and its plans; only its creator deletes; a profile is read by
 * its owner and by the members of a tour they share. A tour or user the caller cannot see
 * answers 404, so its existence does not leak. A caller without a user may only create theirs
 * and look it up; everything else answers 403 TRIPS_CALLER_UNKNOWN.
 */
export function createAccess(deps: AccessDeps) {
  const enforced = deps.authz === 'owner'

  async function callerUser(caller: Caller): Promise<UserRow> {
    const user = await deps.users.findByEmail(caller.email)
    if (!user) throw tripsError('TRIPS_CALLER_UNKNOWN')
    return user
  }

  /** The caller's user id when rules are enforced; undefined when they are open. */
  async function viewerId(caller: Caller): Promise<number | undefined> {
    return enforced ? (await callerUser(caller)).id : undefined
  }

  const isSelf = (caller: Caller, user: UserRow) => user.email_key === caller.email.toLowerCase()

  async function memberTour(caller: Caller, tourId: number): Promise<{ tour: TourRow; viewer: number | undefined }> {
    const found = await deps.members.tourWithMembership(tourId, caller.email)
    if (!enforced) {
      if (!found) throw tripsError('TRIPS_TOUR_NOT_FOUND')
      return { tour: found.tour, viewer: undefined }
    }
    // The caller check comes first: an unknown caller learns nothing about the tour.
    if (!found) {
      await callerUser(caller)
      throw tripsError('TRIPS_TOUR_NOT_FOUND')
    }
    if (found.viewerId === undefined) throw tripsError('TRIPS_CALLER_UNKNOWN')
    if (!found.isMember) throw tripsError('TRIPS_TOUR_NOT_FOUND')
    return { tour: found.tour, viewer: found.viewerId }
  }

  return {
    viewerId,
    /** Whether this user is the caller (by e-mail). */
    isCaller: isSelf,
    /** The tour, if the caller is a member (or rules are open); 404 otherwise. */
    async readableTour(caller: Caller, tourId: number): Promise<TourRow> {
      return (await memberTour(caller, tourId)).tour
    },
    /** The tour, if the caller created it; 404 to non-members, 403 to other members. */
    async ownedTour(caller: Caller, tourId: number): Promise<TourRow> {
      const { tour, viewer } = await memberTour(caller, tourId)
      if (viewer !== undefined && tour.creator_id !== viewer) throw tripsError('TRIPS_NOT_CREATOR')
      return tour
    },
    /**
     * The tour, if the caller is a member. Changing its creator_id hands over the creator's rights
     * (deleting it and its plans): only the creator may, and only to a member, who can see it.
     */
    async updatableTour(caller: Caller, tourId: number, creatorId: number | undefined): Promise<TourRow> {
      const { tour, viewer } = await memberTour(caller, tourId)
      if (viewer === undefined || creatorId === undefined || creatorId === tour.creator_id) return tour
      if (tour.creator_id !== viewer) throw tripsError('TRIPS_NOT_CREATOR', 'Only the tour creator may change creator_id.')
      if ((await deps.members.linksOfUser(creatorId, { tourId })).length === 0) {
        throw tripsError('TRIPS_VALIDATION_FAILED', undefined, {
          details: [{ pointer: '/creator_id', message: 'creator_id must be a member of the tour' }]
        })
      }
      return tour
    },
    /**
     * A profile (emergency contact included) is for its owner and for members of a tour they
     * share; anyone else gets the same 404 as for an unknown user.
     */
    async readableUser(caller: Caller, user: UserRow | undefined): Promise<UserRow> {
      if (!user) throw tripsError('TRIPS_USER_NOT_FOUND')
      if (!enforced || isSelf(caller, user)) return user
      const viewer = await deps.users.findByEmail(caller.email)
      if (!viewer || !(await deps.members.shareATour(viewer.id, user.id))) throw tripsError('TRIPS_USER_NOT_FOUND')
      return user
    },
    /** A user record may only carry the caller's own e-mail, so no one claims another's address. */
    assertOwnEmail(caller: Caller, email: string): void {
      if (enforced && email.toLowerCase() !== caller.email.toLowerCase()) {
        throw tripsError('TRIPS_EMAIL_NOT_YOURS', undefined, {
          details: [{ pointer: '/email_address', message: tripsErrors.TRIPS_EMAIL_NOT_YOURS.message }]
        })
      }
    },
    /** Only the user themself may change or delete their user. */
    async assertSelf(caller: Caller, user: UserRow): Promise<void> {
      if (enforced && !isSelf(caller, user)) throw tripsError('TRIPS_NOT_OWNER')
    },
    /** A tour may only be created with the caller as its creator. */
    async assertCreator(caller: Caller, creator: UserRow): Promise<void> {
      if (enforced && creator.email_key !== caller.email.toLowerCase()) throw tripsError('TRIPS_CREATOR_MISMATCH')
    }
  }
}
export type Access = ReturnType<typeof createAccess>
