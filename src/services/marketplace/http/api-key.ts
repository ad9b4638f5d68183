import type { FastifyRequest } from 'fastify'
import { hashToken } from '../../../core/auth/crypto.js'
import { createGuard, type Guard } from '../../../core/http/guard.js'
import type { KeysRepository } from '../modules/keys/keys.repository.js'
import type { Principal } from '../modules/keys/keys.service.js'
import { marketplaceError } from '../errors.js'

/** Resolves the caller of a request or throws the 401 envelope. */
export type Authenticate = (request: FastifyRequest) => Promise<Principal>
/** The /v2 scope checks the key on every request; handlers read the caller with `apiKey.of(request)`. */
export type ApiKeyGuard = Guard<Principal>

export const createApiKeyGuard = (authenticate: Authenticate): ApiKeyGuard => createGuard('API key', authenticate)

/**
 * The API key of a request: `apikey` in the query string (any case), else the X-CE-KEY header,
 * else an `apikey` header (the 2016 generated clients declare the scheme but never add it to a
 * call; their configuration can only add default headers, named after the scheme).
 */
function apiKeyOf(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined
  if (query && typeof query === 'object') {
    for (const [name, value] of Object.entries(query)) {
      if (name.toLowerCase() !== 'apikey') continue
      const text = Array.isArray(value) ? value[0] : value
      if (typeof text === 'string' && text.trim()) return text.trim()
    }
  }
  const header = request.headers['x-ce-key'] ?? request.headers.apikey
  const text = Array.isArray(header) ? header[0] : header
  return typeof text === 'string' && text.trim() ? text.trim() : undefined
}

/** Resolves the principal of a request from its key (hashed, looked up by hash) or throws 401. */
export function createAuthenticator(keys: Pick<KeysRepository, 'findPrincipal'>): Authenticate {
  return async function authenticate(request) {
    const key = apiKeyOf(request)
    if (!key) throw marketplaceError('MARKETPLACE_API_KEY_MISSING')
    if (key.length > 200) throw marketplaceError('MARKETPLACE_API_KEY_UNKNOWN')
    const row = await keys.findPrincipal(hashToken(key))
    if (!row) throw marketplaceError('MARKETPLACE_API_KEY_UNKNOWN')
    if (row.revoked_at !== null) throw marketplaceError('MARKETPLACE_API_KEY_UNKNOWN', 'API key is unknown: it has been revoked.')
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
