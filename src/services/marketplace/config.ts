import { Type } from 'typebox'
import { defineConfigFragment, Port, type SettingsOf } from '../../core/config/schema.js'

export const marketplaceConfig = defineConfigFragment({
  service: 'marketplace',
  schema: Type.Object({
    MARKETPLACE_PORT: Port(3400, 'marketplace port'),
    MARKETPLACE_PAGE_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
    // The response shapes where the official 2016 client (g2, the default) and the G1 view models of the
    // seed's documentation (g1) differ; `seed` is the earlier name of g1 (docs/compatibility.md).
    MARKETPLACE_COMPAT: Type.Union([Type.Literal('g2'), Type.Literal('g1'), Type.Literal('seed')], { default: 'g2' })
  }),
  resolve: (env) => ({
    port: env.MARKETPLACE_PORT,
    pageSize: env.MARKETPLACE_PAGE_SIZE,
    compat: env.MARKETPLACE_COMPAT === 'g2' ? ('g2' as const) : ('g1' as const)
  })
})

export type MarketplaceSettings = SettingsOf<typeof marketplaceConfig>
/** The response shapes the product routes answer: the seed's, or the 2016 clients' (g2) where they conflict. */
/**
 * MARKETPLACE_COMPAT: 'g2' (default) answers the shapes the official 2016 client reads where they differ
 * from the G1 view models (ProductCreationResult, ExtraData as a list, ToBeRemoved as references); 'g1' the G1 ones.
 */
export type MarketplaceCompat = MarketplaceSettings['compat']
