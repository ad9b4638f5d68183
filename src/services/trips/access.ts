import { AppError } from '../../core/errors/app-error.js'
import type { TourRow, UserRow } from './db.js'
import type { MembersRepository } from './modules/members/members.repository.js'
import type { UsersRepository } from './modules/users/users.repository.js'

/** The verified principal: the e-mail claim of the bearer token. */
export interface Caller {
  email: string
}

export interface AccessDeps {
  users: Pick<UsersRepository, 'findByEmail'>
  members: Pick<MembersRepository, 'tourWithMembership'>
  /** "owner" enforces the ownership rules; "open" is the original's no-ownership behaviour. */
  authz: 'owner' | 'open'
}

/**
 * Ownership rules, in one place: a caller acts as the user with their token's e-mail; tour
 * members read and change a tour and its plans; only its creator deletes. A tour the caller
 * cannot see answers 404, so its existence does not leak.
 */
export function createAccess(deps: AccessDeps) {
  const enforced = deps.authz === 'owner'

  async function callerUser(caller: Caller): Promise<UserRow> {
    const user = await deps.users.findByEmail(caller.email)
    if (!user) throw new AppError('TRIPS_CALLER_UNKNOWN')
    return user
  }

  /** The caller's user id when rules are enforced; undefined when they are open. */
  async function viewerId(caller: Caller): Promise<number | undefined> {
    return enforced ? (await callerUser(caller)).id : undefined
  }

  async function memberTour(caller: Caller, tourId: number): Promise<{ tour: TourRow; viewer: number | undefined }> {
    const found = await deps.members.tourWithMembership(tourId, caller.email)
    if (!found) throw new AppError('TRIPS_TOUR_NOT_FOUND')
    if (!enforced) return { tour: found.tour, viewer: undefined }
    if (!found.isMember) throw new AppError('TRIPS_TOUR_NOT_FOUND')
    return { tour: found.tour, viewer: found.viewerId }
  }

  return {
    enforced,
    callerUser,
    viewerId,
    /** The tour, if the caller is a member (or rules are open); 404 otherwise. */
    async readableTour(caller: Caller, tourId: number): Promise<TourRow> {
      return (await memberTour(caller, tourId)).tour
    },
    /** The tour, if the caller created it; 404 to non-members, 403 to other members. */
    async ownedTour(caller: Caller, tourId: number): Promise<TourRow> {
      const { tour, viewer } = await memberTour(caller, tourId)
      if (viewer !== undefined && tour.creator_id !== viewer) throw new AppError('TRIPS_NOT_CREATOR')
      return tour
    },
    /** Only the user themself may change or delete their user. */
    async assertSelf(caller: Caller, user: UserRow): Promise<void> {
      if (enforced && user.email_key !== caller.email.toLowerCase()) throw new AppError('TRIPS_NOT_OWNER')
    },
    /** A tour may only be created with the caller as its creator. */
    async assertCreator(caller: Caller, creator: UserRow): Promise<void> {
      if (enforced && creator.email_key !== caller.email.toLowerCase()) throw new AppError('TRIPS_CREATOR_MISMATCH')
    }
  }
}
export type Access = ReturnType<typeof createAccess>
