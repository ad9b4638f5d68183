import type { Static } from 'typebox'
import { isUniqueViolation } from '../../../../core/db/errors.js'
import type { Access, Caller } from '../../access.js'
import type { UserRow } from '../../db.js'
import type { CreateUserBody, UpdateUserBody } from './users.schemas.js'
import type { UsersRepository } from './users.repository.js'
import { tripsError } from '../../errors.js'

// The original stores the literal "nil" for absent emergency details; its client reads it back as empty.
const ABSENT = 'nil'

export interface UsersServiceDeps {
  users: UsersRepository
  access: Access
  now: () => string
}

export function createUsersService({ users, access, now }: UsersServiceDeps) {
  function emailTaken(error: unknown): never {
    if (isUniqueViolation(error)) {
      throw tripsError('TRIPS_EMAIL_TAKEN', undefined, {
        details: [{ pointer: '/email_address', message: 'email_address has already been taken' }]
      })
    }
    throw error
  }

  async function existing(id: number): Promise<UserRow> {
    const user = await users.findById(id)
    if (!user) throw tripsError('TRIPS_USER_NOT_FOUND')
    return user
  }

  return {
    /** Creates the caller's own user: the e-mail must be the token's (the original client's flow). */
    async create(caller: Caller, input: Static<typeof CreateUserBody>): Promise<UserRow> {
      access.assertOwnEmail(caller, input.email_address)
      const at = now()
      return users
        .insert({
          user_name: input.user_name,
          email_address: input.email_address,
          email_key: input.email_address.toLowerCase(),
          emergency_contact_name: input.emergency_contact_name ?? ABSENT,
          emergency_number: input.emergency_number ?? ABSENT,
          created_at: at,
          updated_at: at
        })
        .catch(emailTaken)
    },

    /**
     * GET /user/{email_address}: by e-mail (case-insensitive); an all-digit segment is taken as
     * the id. Works before the caller's user exists (the client looks itself up after login).
     */
    async lookup(caller: Caller, segment: string): Promise<UserRow> {
      const user = /^\d{1,15}$/.test(segment) ? await users.findById(Number(segment)) : await users.findByEmail(segment)
      return access.readableUser(caller, user)
    },

    async update(caller: Caller, id: number, patch: Static<typeof UpdateUserBody>): Promise<UserRow> {
      await access.viewerId(caller)
      await access.assertSelf(caller, await existing(id))
      if (patch.email_address !== undefined) access.assertOwnEmail(caller, patch.email_address)
      const changes = {
        ...(patch.user_name !== undefined ? { user_name: patch.user_name } : {}),
        ...(patch.email_address !== undefined ? { email_address: patch.email_address, email_key: patch.email_address.toLowerCase() } : {}),
        ...(patch.emergency_contact_name !== undefined ? { emergency_contact_name: patch.emergency_contact_name } : {}),
        ...(patch.emergency_number !== undefined ? { emergency_number: patch.emergency_number } : {}),
        updated_at: now()
      }
      const updated = await users.update(id, changes).catch(emailTaken)
      if (!updated) throw tripsError('TRIPS_USER_NOT_FOUND')
      return updated
    },

    async delete(caller: Caller, id: number): Promise<void> {
      await access.viewerId(caller)
      await access.assertSelf(caller, await existing(id))
      if (!(await users.delete(id))) throw tripsError('TRIPS_USER_NOT_FOUND')
    }
  }
}
export type UsersService = ReturnType<typeof createUsersService>
