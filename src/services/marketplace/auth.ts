import type { FastifyRequest } from 'fastify'
import { hashToken } from '../../core/auth/crypto.js'
import { AppError } from '../../core/errors/app-error.js'
import type { KeysRepository } from './modules/keys/keys.repository.js'
import type { Principal } from './modules/keys/keys.service.js'

/** The API key of a request: `apikey` in the query string (any case), else the X-CE-KEY header. */
export function apiKeyOf(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined
  if (query && typeof query === 'object') {
    for (const [name, value] of Object.entries(query)) {
      if (name.toLowerCase() !== 'apikey') continue
      const text = Array.isArray(value) ? value[0] : value
      if (typeof text === 'string' && text.trim()) return text.trim()
    }
  }
  const header = request.headers['x-ce-key']
  const text = Array.isArray(header) ? header[0] : header
  return typeof text === 'string' && text.trim() ? text.trim() : undefined
}

/** Resolves the principal of a request from its key (hashed, looked up by hash) or throws 401. */
export function createAuthenticator(keys: Pick<KeysRepository, 'findPrincipal'>) {
  return async function authenticate(request: FastifyRequest): Promise<Principal> {
    const key = apiKeyOf(request)
    if (!key) throw new AppError('MARKETPLACE_API_KEY_MISSING')
    if (key.length > 200) throw new AppError('MARKETPLACE_API_KEY_UNKNOWN')
    const row = await keys.findPrincipal(hashToken(key))
    if (!row) throw new AppError('MARKETPLACE_API_KEY_UNKNOWN')
    if (row.revoked_at !== null) throw new AppError('MARKETPLACE_API_KEY_UNKNOWN', 'API key is unknown: it has been revoked.')
    return {
      keyId: row.key_id,
      customerId: row.customer_id,
      customerName: row.customer_name,
      role: row.role,
      channelId: row.channel_id,
      channelName: row.channel_name,
      counters: {
        ordersVersion: Number(row.orders_version),
        productsVersion: Number(row.products_version),
        changeSeq: Number(row.change_seq),
        dataSeenSeq: row.data_seen_seq === null ? null : Number(row.data_seen_seq)
      }
    }
  }
}

export function requireMerchant(principal: Principal, what: string): void {
  if (principal.role !== 'merchant') throw new AppError('MARKETPLACE_MERCHANT_ONLY', `${what} is a merchant operation: use a merchant API key (this key belongs to channel ${principal.channelName ?? ''}).`)
}

export function requireChannel(principal: Principal, what: string): number {
  if (principal.role !== 'channel' || principal.channelId === null) {
    throw new AppError('MARKETPLACE_CHANNEL_ONLY', `${what} is a channel operation: use a channel API key (this is a merchant key).`)
  }
  return principal.channelId
}
