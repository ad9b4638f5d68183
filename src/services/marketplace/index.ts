import type { ServiceDefinition } from '../../core/service.js'
import { buildMarketplaceApp } from './app.js'
import type { MarketplaceDb } from './db.js'
import { marketplaceMigrations } from './migrations/index.js'

export { createApiKey, listApiKeys, revokeApiKey, KeyInputError } from './modules/keys/keys.service.js'
export { marketplaceMigrations } from './migrations/index.js'

export const marketplaceService: ServiceDefinition = {
  name: 'marketplace',
  description: 'merchant/channel order and product synchronisation API v2',
  migrations: marketplaceMigrations,
  async create({ config, database, logger, clock }) {
    const app = await buildMarketplaceApp({
      db: database.db as MarketplaceDb,
      logger: logger.child({ service: 'marketplace' }),
      clock,
      pageSize: config.marketplace.pageSize
    })
    return {
      app,
      notes: [
        'auth: API keys (apikey query parameter or X-CE-KEY header), stored hashed',
        '      merchant key: quartet keys create --customer ACME --role merchant',
        '      channel key:  quartet keys create --customer ACME --role channel --channel bol',
        `      list pages: ${config.marketplace.pageSize} items (MARKETPLACE_PAGE_SIZE)`
      ]
    }
  }
}
