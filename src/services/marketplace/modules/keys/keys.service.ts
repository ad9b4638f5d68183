import { hashToken, randomToken } from '../../../../core/auth/crypto.js'
import type { Database } from '../../../../core/db/database.js'
import type { MarketplaceDb, Role } from '../../db.js'
import { marketplaceError } from '../../errors.js'
import { createKeysRepository, type KeyListRow } from './keys.repository.js'

/** Who is calling: everything a request may touch is scoped by this, taken from the key only. */
export interface Principal {
  keyId: number
  customerId: number
  customerName: string
  role: Role
  /** Set for channel keys. */
  channelId: number | null
  channelName: string | null
  /**
   * The customer's version counters (and, for channel keys, the channel's seen mark) as read with
   * the key, at the start of the request: the cached list reads use them instead of reading them
   * again (see http/read-cache.ts). Absent when a custom authenticator built the principal.
   */
  counters?: PrincipalCounters
}

export interface PrincipalCounters {
  ordersVersion: number
  productsVersion: number
  changeSeq: number
  /** The channel's data_seen_seq; null for merchant keys. */
  dataSeenSeq: number | null
}

/** The access rules of the two roles: every service method checks the one it needs. */
export function requireMerchant(principal: Principal, what: string): void {
  if (principal.role !== 'merchant')
    throw marketplaceError(
      'MARKETPLACE_MERCHANT_ONLY',
      `${what} is a merchant operation: use a merchant API key (this key belongs to channel ${principal.channelName ?? ''}).`
    )
}

/** The channel of a channel key, or a 403 for merchant keys. */
export function requireChannel(principal: Principal, what: string): number {
  if (principal.role !== 'channel' || principal.channelId === null) {
    throw marketplaceError('MARKETPLACE_CHANNEL_ONLY', `${what} is a channel operation: use a channel API key (this is a merchant key).`)
  }
  return principal.channelId
}

export class KeyInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KeyInputError'
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/
const PREFIX_LENGTH = 11

export interface CreatedKey {
  id: number
  key: string
  prefix: string
  customer: string
  role: Role
  channel: string | null
}

/**
 * Creates an API key for a customer (created on first use) with a role; channel keys name their
 * channel (created on first use). The key is returned once and only its SHA-256 is stored.
 */
export async function createApiKey(
  database: Pick<Database, 'db'>,
  input: { customer: string; role: string; channel?: string | undefined },
  now = new Date()
): Promise<CreatedKey> {
  const customer = input.customer.trim()
  if (!NAME.test(customer))
    throw new KeyInputError(
      `--customer must be 1–100 letters, digits, spaces, dots, dashes or underscores (got ${JSON.stringify(input.customer)})`
    )
  if (input.role !== 'merchant' && input.role !== 'channel')
    throw new KeyInputError(`--role must be merchant or channel (got ${JSON.stringify(input.role)})`)
  const role: Role = input.role
  const channelInput = input.channel?.trim()
  if (role === 'channel' && !channelInput) throw new KeyInputError('--channel NAME is required for a channel key (e.g. --channel bol)')
  if (role === 'merchant' && channelInput)
    throw new KeyInputError('--channel is only for channel keys; a merchant key sees every channel of its customer')
  if (channelInput !== undefined && channelInput !== '' && !NAME.test(channelInput)) {
    throw new KeyInputError(
      `--channel must be 1–100 letters, digits, spaces, dots, dashes or underscores (got ${JSON.stringify(input.channel)})`
    )
  }
  const key = `${role === 'merchant' ? 'mk' : 'ck'}_${randomToken(24)}`
  const prefix = key.slice(0, PREFIX_LENGTH)
  const repository = createKeysRepository(database.db as MarketplaceDb)
  const stored = await repository.insertKey({
    customer,
    role,
    channel: role === 'channel' ? (channelInput as string) : null,
    keyHash: hashToken(key),
    prefix,
    now: now.toISOString()
  })
  return { id: stored.id, key, prefix, customer, role, channel: role === 'channel' ? (channelInput as string) : null }
}

export interface ListedKey {
  id: number
  prefix: string
  customer: string
  role: Role
  channel: string | null
  createdAt: string
  revokedAt: string | null
}

const toListed = (row: KeyListRow): ListedKey => ({
  id: row.id,
  prefix: row.prefix,
  customer: row.customer_name,
  role: row.role,
  channel: row.channel_name,
  createdAt: row.created_at,
  revokedAt: row.revoked_at
})

/** Keys (never the key itself: its prefix), optionally of one customer. */
export async function listApiKeys(database: Pick<Database, 'db'>, customer?: string): Promise<ListedKey[]> {
  return (await createKeysRepository(database.db as MarketplaceDb).list(customer)).map(toListed)
}

/** Revokes the one key with this id or prefix; refuses when none or several match. */
export async function revokeApiKey(
  database: Pick<Database, 'db'>,
  idOrPrefix: string,
  now = new Date()
): Promise<{ id: number; prefix: string; alreadyRevoked: boolean }> {
  const wanted = idOrPrefix.trim()
  if (!wanted) throw new KeyInputError('give the id or the prefix of the key to revoke (see quartet keys list)')
  const repository = createKeysRepository(database.db as MarketplaceDb)
  const matches = await repository.findByIdOrPrefix(wanted)
  const exact = matches.filter((m) => String(m.id) === wanted || m.prefix === wanted)
  const candidates = exact.length === 1 ? exact : matches
  if (candidates.length === 0) throw new KeyInputError(`no key has the id or prefix ${JSON.stringify(wanted)}`)
  if (candidates.length > 1)
    throw new KeyInputError(`${candidates.length} keys match ${JSON.stringify(wanted)}: give a longer prefix or the id`)
  const key = candidates[0] as (typeof candidates)[number]
  if (key.revoked_at === null) await repository.revoke(key.id, now.toISOString())
  return { id: key.id, prefix: key.prefix, alreadyRevoked: key.revoked_at !== null }
}
