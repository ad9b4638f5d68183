import { Type } from 'typebox'
import { defineConfigFragment, Port, type SettingsOf } from '../../core/config/schema.js'

export const marketplaceConfig = defineConfigFragment({
  service: 'marketplace',
  schema: Type.Object({
    MARKETPLACE_PORT: Port(3400, 'marketplace port'),
    MARKETPLACE_PAGE_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
    // g2: the two response shapes of the 2016 "Merchant:/Channel:" clients that conflict with the seed's (docs/compatibility.md).
    MARKETPLACE_COMPAT: Type.Union([Type.Literal('seed'), Type.Literal('g2')], { default: 'seed' })
  }),
  resolve: (env) => ({ port: env.MARKETPLACE_PORT, pageSize: env.MARKETPLACE_PAGE_SIZE, compat: env.MARKETPLACE_COMPAT })
})

export type MarketplaceSettings = SettingsOf<typeof marketplaceConfig>
/** The response shapes the product routes answer: the seed's, or the 2016 clients' (g2) where they conflict. */
export type MarketplaceCompat = MarketplaceSettings['compat']
