import { selfCommandLine } from '../../core/cli/self-command.js'
import type { ServiceDefinition } from '../../core/service.js'
import { marketplaceConfig, type MarketplaceSettings } from './config.js'
import { buildMarketplaceApp } from './app.js'
import type { MarketplaceDb } from './db.js'
import { marketplaceMigrations } from './migrations/index.js'

export { createApiKey, listApiKeys, revokeApiKey, KeyInputError } from './modules/keys/keys.service.js'
export { marketplaceMigrations } from './migrations/index.js'

export const marketplaceService: ServiceDefinition<MarketplaceSettings> = {
  name: 'marketplace',
  description: 'merchant/channel order and product synchronisation API v2',
  migrations: marketplaceMigrations,
  config: marketplaceConfig,
  async create({ settings, database, logger, platform }) {
    const app = await buildMarketplaceApp({
      db: database.db as MarketplaceDb,
      logger: logger.child({ service: 'marketplace' }),
      clock: platform.clock,
      pageSize: settings.pageSize,
      compat: settings.compat
    })
    return {
      app,
      notes: [
        'auth: API keys (apikey query parameter, X-CE-KEY or apikey header), stored hashed',
        { hint: 'merchant key', command: selfCommandLine(['keys', 'create', '--customer', 'ACME', '--role', 'merchant']) },
        {
          hint: 'channel key',
          command: selfCommandLine(['keys', 'create', '--customer', 'ACME', '--role', 'channel', '--channel', 'bol'])
        },
        `      list pages: ${settings.pageSize} items (MARKETPLACE_PAGE_SIZE)`,
        `      response shapes: ${settings.compat} (MARKETPLACE_COMPAT)`
      ]
    }
  }
}
