import { after } from 'node:test'
import type { App } from '../../src/core/http/server.js'
import { MARKETPLACE_PREFIX } from '../../src/services/marketplace/app.js'
import { createApiKey, marketplaceMigrations, marketplaceService } from '../../src/services/marketplace/index.js'
import { createTestDatabase, type TestDatabase } from './db.js'
import { buildService, testConfig } from './config.js'
import { injectJson } from './inject.js'

export interface MpResponse {
  status: number
  json: any
  body: string
}

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
  const { app, release } = await buildService(marketplaceService, config, database)
  await app.ready()
  after(async () => {
    await app.close()
    await release()
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
      const url = `${MARKETPLACE_PREFIX}${path}${key === undefined ? '' : `${separator}apikey=${encodeURIComponent(key)}`}`
      const { status, json, body: text } = await injectJson(app, { method, url, body })
      return { status, json, body: text }
    }
  }
}

/** A product body with sensible defaults. */
export function product(reference: string, extra: Record<string, unknown> = {}) {
  return {
    MerchantProductReference: reference,
    Name: `Product ${reference}`,
    Ean: '8712345678906',
    Price: 19.99,
    Stock: 10,
    VatRate: 21,
    ...extra
  }
}

/** A CreateOrderViewModel for the given lines ([merchant product reference, quantity, unit price]). */
export function orderBody(channelReference: string, lines: [string, number, number][], extra: Record<string, unknown> = {}) {
  return {
    ChannelReference: channelReference,
    Email: 'buyer@example.com',
    CurrencyCode: 'EUR',
    OrderDate: '2024-05-01T10:00:00Z',
    ShippingCostsInclVat: 4.95,
    BillingAddress: {
      FirstName: 'Ann',
      LastName: 'Buyer',
      StreetName: 'Main',
      HouseNr: '1',
      ZipCode: '1000AA',
      City: 'Amsterdam',
      CountryIso: 'NL'
    },
    ShippingAddress: {
      FirstName: 'Ann',
      LastName: 'Buyer',
      StreetName: 'Main',
      HouseNr: '1',
      ZipCode: '1000AA',
      City: 'Amsterdam',
      CountryIso: 'NL'
    },
    Lines: lines.map(([ref, quantity, price], i) => ({
      ChannelReference: `${channelReference}-L${i + 1}`,
      MerchantProductReference: ref,
      Quantity: quantity,
      UnitPriceInclVat: price
    })),
    ...extra
  }
}

/** The G2 error envelope: StatusCode mirrors the status, Success false, Message, ValidationErrors map, Content null. */
export function isErrorEnvelope(body: unknown, status: number): boolean {
  const b = body as Record<string, unknown> | null
  if (!b || typeof b !== 'object') return false
  const errors = b.ValidationErrors as Record<string, unknown> | null
  return (
    b.StatusCode === status &&
    b.Success === false &&
    typeof b.Message === 'string' &&
    (b.Message as string).length > 0 &&
    b.Content === null &&
    !!errors &&
    typeof errors === 'object' &&
    Object.values(errors).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'))
  )
}
