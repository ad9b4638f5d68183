import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { buildServer, type App } from '../../core/http/server.js'
import type { MarketplaceDb } from './db.js'
import { marketplaceErrorFormatter } from './errors.js'
import { marketplaceRoutes } from './routes.js'
import { createAuthenticator } from './auth.js'
import type { Principal } from './modules/keys/keys.service.js'
import { createKeysRepository } from './modules/keys/keys.repository.js'
import { createOrdersRepository } from './modules/orders/orders.repository.js'
import { createOrdersService } from './modules/orders/orders.service.js'
import { createFulfilmentsRepository } from './modules/fulfilments/fulfilments.repository.js'
import { createFulfilmentsService } from './modules/fulfilments/fulfilments.service.js'
import { createProductsRepository } from './modules/products/products.repository.js'
import { createProductsService } from './modules/products/products.service.js'
import { createReadCache, createVersionsRepository } from './read-cache.js'

export const MARKETPLACE_PREFIX = '/v2'

export interface MarketplaceAppDeps {
  db: MarketplaceDb
  logger: FastifyBaseLogger
  clock: () => Date
  /** Items per page of the list routes (MARKETPLACE_PAGE_SIZE). */
  pageSize: number
  /** Resolves the caller from the API key; defaults to the key table of `db`. */
  authenticate?: (request: FastifyRequest) => Promise<Principal>
  /** Bytes of rendered list responses kept in memory (default 64 MiB; 0 disables the cache). */
  readCacheBytes?: number
}

/** The marketplace service as a Fastify app (not listening): the composition root of its modules. */
export async function buildMarketplaceApp(deps: MarketplaceAppDeps): Promise<App> {
  const app = await buildServer({
    name: 'marketplace',
    description: 'Merchant/channel order and product synchronisation API v2 (ChannelEngine-style). Authenticate with the apikey query parameter or the X-CE-KEY header.',
    logger: deps.logger,
    errorFormatter: marketplaceErrorFormatter,
    healthCheck: async () => { await sql`select 1`.execute(deps.db) },
    openapi: {
      securitySchemes: {
        apikey: { type: 'apiKey', in: 'query', name: 'apikey', description: 'API key of a merchant or channel (quartet keys create)' },
        apikeyHeader: { type: 'apiKey', in: 'header', name: 'X-CE-KEY', description: 'the same key as a header (keeps it out of URL logs)' }
      },
      tags: [
        { name: 'orders' }, { name: 'backorders' }, { name: 'cancellations' }, { name: 'shipments' }, { name: 'returns' },
        { name: 'products' }, { name: 'product sync' }, { name: 'health' }
      ]
    }
  })
  // ASP.NET Web API clients also send JSON as text/json.
  app.addContentTypeParser('text/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'))

  const now = () => deps.clock().toISOString()
  const ordersRepository = createOrdersRepository(deps.db)
  const productsRepository = createProductsRepository(deps.db)
  const versions = createVersionsRepository(deps.db)
  const routes = marketplaceRoutes({
    orders: createOrdersService({ orders: ordersRepository, products: productsRepository, versions, now }),
    fulfilments: createFulfilmentsService({ fulfilments: createFulfilmentsRepository(deps.db), orders: ordersRepository, now }),
    products: createProductsService({ products: productsRepository, versions, now }),
    cache: createReadCache(deps.readCacheBytes),
    authenticate: deps.authenticate ?? createAuthenticator(createKeysRepository(deps.db)),
    pageSize: deps.pageSize
  })
  await app.register(routes, { prefix: MARKETPLACE_PREFIX })
  return app
}
