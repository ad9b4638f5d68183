import { createHash } from 'node:crypto'
import { clientKey, type RateCounters } from '../../../../core/rate-limit.js'
import { feedError } from '../../errors.js'

/** At most `max` counted attempts per `windowSeconds`; 0 turns the limit off. */
export interface AttemptLimit {
  max: number
  windowSeconds: number
}

export interface AttemptLimits {
  loginPerAccount: AttemptLimit
  loginPerClient: AttemptLimit
  signupPerClient: AttemptLimit
}

type Refusal = 'FEED_TOO_MANY_ATTEMPTS' | 'FEED_LOGIN_LOCKED'

// Redis keys carry a digest, not the address: the counters need no readable e-mails.
const accountKey = (emailKey: string) => `login-account:${createHash('sha256').update(emailKey).digest('base64url')}`

/**
 * Brute-force limits of sign-up and login: attempts per client address, and failed logins per
 * e-mail address (known or not, so a 429 does not reveal which addresses have accounts). A
 * failure is counted before the password is checked, so parallel guesses cannot all slip under
 * the limit; a successful login clears the account's failures.
 */
export function createAttemptLimiter(counters: RateCounters, limits: AttemptLimits) {
  async function count(key: string, limit: AttemptLimit, refusal: Refusal): Promise<void> {
    if (limit.max === 0) return
    const { count, resetInMs } = await counters.hit(key, limit.windowSeconds * 1000)
    if (count > limit.max) {
      throw feedError(refusal, undefined, { headers: { 'retry-after': String(Math.max(1, Math.ceil(resetInMs / 1000))) } })
    }
  }

  return {
    /** Counts a login attempt of this client and a (provisional) failure for this e-mail; 429 beyond either limit. */
    async beforeLogin(clientAddress: string, emailKey: string): Promise<void> {
      await count(`login-client:${clientKey(clientAddress)}`, limits.loginPerClient, 'FEED_TOO_MANY_ATTEMPTS')
      if (emailKey) await count(accountKey(emailKey), limits.loginPerAccount, 'FEED_LOGIN_LOCKED')
    },
    async loginSucceeded(emailKey: string): Promise<void> {
      if (limits.loginPerAccount.max !== 0) await counters.reset(accountKey(emailKey))
    },
    async beforeSignup(clientAddress: string): Promise<void> {
      await count(`signup-client:${clientKey(clientAddress)}`, limits.signupPerClient, 'FEED_TOO_MANY_ATTEMPTS')
    }
  }
}
export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>
