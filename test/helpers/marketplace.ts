import { after } from 'node:test'
import { silentLogger } from '../../src/core/logger.js'
import type { App } from '../../src/core/http/server.js'
import { buildMarketplaceApp, MARKETPLACE_PREFIX } from '../../src/services/marketplace/app.js'
import type { MarketplaceDb } from '../../src/services/marketplace/db.js'
import { createApiKey, marketplaceMigrations } from '../../src/services/marketplace/index.js'
import { createTestDatabase, type TestDatabase } from './db.js'
import { testConfig } from './config.js'

export interface MpResponse { status: number; json: any; body: string }

export interface MarketplaceHarness {
  app: App
  database: TestDatabase
  /** Creates a key through the same function `quartet keys create` uses. */
  key(customer: string, role: 'merchant' | 'channel', channel?: string): Promise<string>
  /** Inject with the key in the apikey query parameter; path under /v2. */
  call(key: string | undefined, method: string, path: string, body?: unknown): Promise<MpResponse>
}

/** The marketplace app on a fresh test database; closed after the test file. */
export async function startMarketplace(env: Record<string, string> = {}): Promise<MarketplaceHarness> {
  const config = testConfig(env)
  const database = await createTestDatabase([marketplaceMigrations])
  const app = await buildMarketplaceApp({ db: database.db as MarketplaceDb, logger: silentLogger(), clock: () => new Date(), pageSize: config.marketplace.pageSize })
  await app.ready()
  after(async () => {
    await app.close()
    await database.close()
  })
  return {
    app,
    database,
    async key(customer, role, channel) {
      return (await createApiKey(database, { customer, role, channel })).key
    },
    async call(key, method, path, body) {
      const separator = path.includes('?') ? '&' : '?'
      const response = await app.inject({
        method: method as 'GET',
        url: `${MARKETPLACE_PREFIX}${path}${key === undefined ? '' : `${separator}apikey=${encodeURIComponent(key)}`}`,
        ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) } : {})
      })
      let json: unknown
      try { json = response.body ? JSON.parse(response.body) : undefined } catch { json = undefined }
      return { status: response.statusCode, json, body: response.body }
    }
  }
}

/** A product body with sensible defaults. */
export function product(reference: string, extra: Record<string, unknown> = {}) {
  return { MerchantProductReference: reference, Name: `Product ${reference}`, Ean: '8712345678906', Price: 19.99, Stock: 10, VatRate: 21, ...extra }
}

/** A CreateOrderViewModel for the given lines ([merchant product reference, quantity, unit price]). */
export function orderBody(channelReference: string, lines: [string, number, number][], extra: Record<string, unknown> = {}) {
  return {
    ChannelReference: channelReference,
    Email: 'buyer@example.com',
    CurrencyCode: 'EUR',
    OrderDate: '2024-05-01T10:00:00Z',
    ShippingCostsInclVat: 4.95,
    BillingAddress: { FirstName: 'Ann', LastName: 'Buyer', StreetName: 'Main', HouseNr: '1', ZipCode: '1000AA', City: 'Amsterdam', CountryIso: 'NL' },
    ShippingAddress: { FirstName: 'Ann', LastName: 'Buyer', StreetName: 'Main', HouseNr: '1', ZipCode: '1000AA', City: 'Amsterdam', CountryIso: 'NL' },
    Lines: lines.map(([ref, quantity, price], i) => ({ ChannelReference: `${channelReference}-L${i + 1}`, MerchantProductReference: ref, Quantity: quantity, UnitPriceInclVat: price })),
    ...extra
  }
}

/** The G2 error envelope: StatusCode mirrors the status, Success false, Message, ValidationErrors map, Content null. */
export function isErrorEnvelope(body: unknown, status: number): boolean {
  const b = body as Record<string, unknown> | null
  if (!b || typeof b !== 'object') return false
  const errors = b.ValidationErrors as Record<string, unknown> | null
  return b.StatusCode === status && b.Success === false && typeof b.Message === 'string' && (b.Message as string).length > 0 &&
    b.Content === null && !!errors && typeof errors === 'object' && Object.values(errors).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'))
}
