import { type ErrorDetail } from '../../../../core/errors/app-error.js'
import { hashPassword, verifyPassword } from '../../../../core/auth/crypto.js'
import { isUniqueViolation } from '../../../../core/db/errors.js'
import type { FeedCaller } from '../../auth.js'
import { feedError, fieldError } from '../../errors.js'
import { nulFieldErrors, trimmed } from '../../text-fields.js'
import type { AttemptLimiter } from './attempt-limits.js'
import type { UsersRepository } from './users.repository.js'

export const DEFAULT_STATUS = 'I am new!'
export const MIN_PASSWORD = 5

export interface UsersServiceDeps {
  users: UsersRepository
  limiter: AttemptLimiter
  now: () => string
  signToken: (claims: { email: string; userId: string }) => Promise<string>
}

/** Who is asking: the address the attempt limits count by. */
export interface ClientInfo {
  address: string
}

// A practical e-mail check (what express-validator's isEmail accepts for ordinary addresses):
// local part and a dotted domain, no spaces, at most 254 characters.
const EMAIL_LOCAL_PART = "[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}"
const EMAIL_DOMAIN_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?'
const EMAIL = new RegExp('^' + EMAIL_LOCAL_PART + '@' + EMAIL_DOMAIN_LABEL + '(?:\\.' + EMAIL_DOMAIN_LABEL + ')+$')

function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value) && !value.includes('..') && !value.startsWith('.') && !value.split('@')[0]?.endsWith('.')
}

export interface SignupInput {
  email?: unknown
  password?: unknown
  name?: unknown
  username?: unknown
}

// A real scrypt hash of a random password: login for an unknown e-mail costs the same time as a
// wrong password, so response times do not reveal which addresses have accounts.
let dummyHash: Promise<string> | undefined

export function createUsersService({ users, limiter, now, signToken }: UsersServiceDeps) {
  const emailTaken = () =>
    feedError('FEED_VALIDATION_FAILED', undefined, { details: [fieldError('email', 'E-Mail address already exists!')] })

  return {
    /** Registers a user; 422 with one entry per invalid field (as the original's validators). */
    async signup(input: SignupInput, client: ClientInfo): Promise<{ userId: string }> {
      await limiter.beforeSignup(client.address)
      const nul = nulFieldErrors(input as Record<string, unknown>, ['email', 'password', 'name', 'username'])
      if (nul.length > 0) throw feedError('FEED_VALIDATION_FAILED', undefined, { details: nul })
      const details: ErrorDetail[] = []
      const email = trimmed(input.email)
      const password = trimmed(input.password)
      // The original's model calls the field name; one of its copies sends username.
      const name = trimmed(input.name) ?? trimmed(input.username)
      if (!email || !isEmail(email)) details.push(fieldError('email', 'Please enter a valid email.'))
      else if (await users.emailKeyExists(email.toLowerCase())) details.push(fieldError('email', 'E-Mail address already exists!'))
      if (!password || password.length < MIN_PASSWORD)
        details.push(fieldError('password', `Password must be at least ${MIN_PASSWORD} characters long.`))
      if (!name) details.push(fieldError('name', 'Please enter a name.'))
      if (details.length > 0 || !email || !password || !name) throw feedError('FEED_VALIDATION_FAILED', undefined, { details })

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

    /** Logs in; 429 once the client or the e-mail address has had too many attempts (attempt-limits.ts). */
    async login(input: { email?: unknown; password?: unknown }, client: ClientInfo): Promise<{ token: string; userId: string }> {
      const email = trimmed(input.email) ?? ''
      const password = trimmed(input.password) ?? ''
      const emailKey = email.toLowerCase()
      await limiter.beforeLogin(client.address, emailKey)
      const user = email && !email.includes('\u0000') ? await users.findByEmailKey(emailKey) : undefined
      if (!user) {
        dummyHash ??= hashPassword(`${Math.random()}`)
        await verifyPassword(password, await dummyHash)
        throw feedError('FEED_EMAIL_UNKNOWN')
      }
      if (!(await verifyPassword(password, user.password_hash))) throw feedError('FEED_WRONG_PASSWORD')
      await limiter.loginSucceeded(emailKey)
      const userId = String(user.id)
      return { token: await signToken({ email: user.email, userId }), userId }
    },

    /** The caller's own status: a caller reads and sets only their own. */
    async getStatus(caller: FeedCaller): Promise<string> {
      const user = await users.findById(caller.userId)
      if (!user) throw feedError('FEED_USER_NOT_FOUND')
      return user.status
    },

    async setStatus(caller: FeedCaller, input: { status?: unknown }): Promise<void> {
      const nul = nulFieldErrors(input as Record<string, unknown>, ['status'])
      if (nul.length > 0) throw feedError('FEED_VALIDATION_FAILED', undefined, { details: nul })
      const status = trimmed(input.status)
      if (!status) throw feedError('FEED_VALIDATION_FAILED', undefined, { details: [fieldError('status', 'Please enter a status.')] })
      if (!(await users.updateStatus(caller.userId, status, now()))) throw feedError('FEED_USER_NOT_FOUND')
    }
  }
}
export type UsersService = ReturnType<typeof createUsersService>
