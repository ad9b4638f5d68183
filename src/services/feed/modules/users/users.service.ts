import { AppError, type ErrorDetail } from '../../../../core/errors/app-error.js'
import { hashPassword, verifyPassword } from '../../../../core/auth/crypto.js'
import { isUniqueViolation } from '../../../../core/db/errors.js'
import { fieldError, isEmail, nulFieldErrors, trimmed } from '../../validation.js'
import type { UsersRepository } from './users.repository.js'

export const DEFAULT_STATUS = 'I am new!'
export const MIN_PASSWORD = 5

export interface UsersServiceDeps {
  users: UsersRepository
  now: () => string
  signToken: (claims: { email: string; userId: string }) => Promise<string>
}

export interface SignupInput { email?: unknown; password?: unknown; name?: unknown; username?: unknown }

// A real scrypt hash of a random password: login for an unknown e-mail costs the same time as a
// wrong password, so response times do not reveal which addresses have accounts.
let dummyHash: Promise<string> | undefined

export function createUsersService({ users, now, signToken }: UsersServiceDeps) {
  const emailTaken = () => new AppError('FEED_VALIDATION_FAILED', undefined, { details: [fieldError('email', 'E-Mail address already exists!')] })

  return {
    /** Registers a user; 422 with one entry per invalid field (as the original's validators). */
    async signup(input: SignupInput): Promise<{ userId: string }> {
      const nul = nulFieldErrors(input as Record<string, unknown>, ['email', 'password', 'name', 'username'])
      if (nul.length > 0) throw new AppError('FEED_VALIDATION_FAILED', undefined, { details: nul })
      const details: ErrorDetail[] = []
      const email = trimmed(input.email)
      const password = trimmed(input.password)
      // The original's model calls the field name; one of its copies sends username.
      const name = trimmed(input.name) ?? trimmed(input.username)
      if (!email || !isEmail(email)) details.push(fieldError('email', 'Please enter a valid email.'))
      else if (await users.emailKeyExists(email.toLowerCase())) details.push(fieldError('email', 'E-Mail address already exists!'))
      if (!password || password.length < MIN_PASSWORD) details.push(fieldError('password', `Password must be at least ${MIN_PASSWORD} characters long.`))
      if (!name) details.push(fieldError('name', 'Please enter a name.'))
      if (details.length > 0 || !email || !password || !name) throw new AppError('FEED_VALIDATION_FAILED', undefined, { details })

      const at = now()
      try {
        const id = await users.insert({
          email,
          email_key: email.toLowerCase(),
          password_hash: await hashPassword(password),
          name,
          status: DEFAULT_STATUS,
          created_at: at,
          updated_at: at
        })
        return { userId: String(id) }
      } catch (error) {
        // Two sign-ups with one address at once: the unique key decides, the loser gets the 422.
        if (isUniqueViolation(error)) throw emailTaken()
        throw error
      }
    },

    async login(input: { email?: unknown; password?: unknown }): Promise<{ token: string; userId: string }> {
      const email = trimmed(input.email) ?? ''
      const password = trimmed(input.password) ?? ''
      const user = email && !email.includes('\u0000') ? await users.findByEmailKey(email.toLowerCase()) : undefined
      if (!user) {
        dummyHash ??= hashPassword(`${Math.random()}`)
        await verifyPassword(password, await dummyHash)
        throw new AppError('FEED_EMAIL_UNKNOWN')
      }
      if (!(await verifyPassword(password, user.password_hash))) throw new AppError('FEED_WRONG_PASSWORD')
      const userId = String(user.id)
      return { token: await signToken({ email: user.email, userId }), userId }
    },

    async getStatus(userId: number): Promise<string> {
      const user = await users.findById(userId)
      if (!user) throw new AppError('FEED_USER_NOT_FOUND')
      return user.status
    },

    async setStatus(userId: number, input: { status?: unknown }): Promise<void> {
      const nul = nulFieldErrors(input as Record<string, unknown>, ['status'])
      if (nul.length > 0) throw new AppError('FEED_VALIDATION_FAILED', undefined, { details: nul })
      const status = trimmed(input.status)
      if (!status) throw new AppError('FEED_VALIDATION_FAILED', undefined, { details: [fieldError('status', 'Please enter a status.')] })
      if (!(await users.updateStatus(userId, status, now()))) throw new AppError('FEED_USER_NOT_FOUND')
    }
  }
}
export type UsersService = ReturnType<typeof createUsersService>
