import type { FastifyBaseLogger } from 'fastify'
import { createServer, type App } from '../../core/http/server.js'
import { emptyTolerantJsonParser } from '../../core/http/json-body.js'
import { health } from '../../core/http/plugins/health.js'
import { databaseHealthCheck } from '../../core/http/plugins/database-health.js'
import { inputSanity } from '../../core/http/plugins/input-sanity.js'
import { openApiDocs } from '../../core/http/plugins/openapi.js'
import { requestLog } from '../../core/http/plugins/request-log.js'
import { securityHeaders } from '../../core/http/plugins/security-headers.js'
import type { MarketplaceCompat } from './config.js'
import type { MarketplaceDb } from './db.js'
import { marketplaceErrorFormatter } from './errors.js'
import { createApiKeyGuard, createAuthenticator, type Authenticate } from './http/api-key.js'
import { caseInsensitiveInput } from './http/case-insensitive.js'
import { createReadCache } from './http/read-cache.js'
import { createKeysRepository } from './modules/keys/keys.repository.js'
import { createOrdersRepository } from './modules/orders/orders.repository.js'
import { ordersRoutes } from './modules/orders/orders.routes.js'
import { createOrdersService } from './modules/orders/orders.service.js'
import { createFulfilmentsRepository } from './modules/fulfilments/fulfilments.repository.js'
import { fulfilmentsRoutes } from './modules/fulfilments/fulfilments.routes.js'
import { createFulfilmentsService } from './modules/fulfilments/fulfilments.service.js'
import { createProductsRepository } from './modules/products/products.repository.js'
import { productsRoutes } from './modules/products/products.routes.js'
import { createProductsService } from './modules/products/products.service.js'

export const MARKETPLACE_PREFIX = '/v2'

export interface MarketplaceAppDeps {
  db: MarketplaceDb
  logger: FastifyBaseLogger
  clock: () => Date
  /** Items per page of the list routes (MARKETPLACE_PAGE_SIZE). */
  pageSize: number
  /** Resolves the caller from the API key; defaults to the key table of `db`. */
  authenticate?: Authenticate
  /** Bytes of rendered list responses kept in memory (default 64 MiB; 0 disables the cache). */
  readCacheBytes?: number
  /** MARKETPLACE_COMPAT (default 'g2'). */
  compat?: MarketplaceCompat
}

/** The marketplace service as a Fastify app (not listening): the composition root of its modules. */
export async function buildMarketplaceApp(deps: MarketplaceAppDeps): Promise<App> {
  const app = createServer({ logger: deps.logger, errorFormatter: marketplaceErrorFormatter })
  inputSanity(app)
  securityHeaders(app)
  requestLog(app)
  await openApiDocs(app, {
    name: 'marketplace',
    description:
      'Merchant/channel order and product synchronisation API v2 (ChannelEngine-style). ' +
      'Authenticate with the apikey query parameter or the X-CE-KEY (or apikey) header.',
    credentials:
      "Create an API key on the server's machine: `quartet keys create --customer ACME --role merchant` (or `--role channel " +
      '--channel bol`) prints an mk_… or ck_… key once; put it under **Authorize** (apikey query parameter or X-CE-KEY header).',
    securitySchemes: {
      apikey: { type: 'apiKey', in: 'query', name: 'apikey', description: 'API key of a merchant or channel (quartet keys create)' },
      apikeyHeader: { type: 'apiKey', in: 'header', name: 'X-CE-KEY', description: 'the same key as a header (keeps it out of URL logs)' }
    },
    tags: [
      { name: 'orders' },
      { name: 'backorders' },
      { name: 'cancellations' },
      { name: 'shipments' },
      { name: 'returns' },
      { name: 'products' },
      { name: 'product sync' },
      { name: 'health' }
    ]
  })
  health(app, { name: 'marketplace', check: databaseHealthCheck(deps.db) })
  // ASP.NET Web API clients also send JSON as text/json (empty taken as no body, as for application/json).
  app.addContentTypeParser('text/json', { parseAs: 'string' }, emptyTolerantJsonParser(app))

  const now = () => deps.clock().toISOString()
  const productsRepository = createProductsRepository(deps.db)
  const orders = createOrdersService({ orders: createOrdersRepository(deps.db), products: productsRepository, now })
  const fulfilments = createFulfilmentsService({ fulfilments: createFulfilmentsRepository(deps.db), orders, now })
  const products = createProductsService({ products: productsRepository, now })
  const apiKey = createApiKeyGuard(deps.authenticate ?? createAuthenticator(createKeysRepository(deps.db)))
  const cache = createReadCache(deps.readCacheBytes)
  const { pageSize } = deps
  const compat = deps.compat ?? 'g2'

  // Every /v2 route needs a key; the routes register in this order (it is the OpenAPI path order).
  await app.register(
    async (v2: App) => {
      v2.addHook('onRequest', apiKey.check)
      caseInsensitiveInput(v2)
      ordersRoutes(v2, { orders, apiKey, cache, pageSize })
      fulfilmentsRoutes(v2, { fulfilments, apiKey, pageSize })
      productsRoutes(v2, { products, apiKey, cache, pageSize, compat })
    },
    { prefix: MARKETPLACE_PREFIX }
  )
  return app
}
