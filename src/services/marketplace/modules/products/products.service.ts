import { marketplaceError } from '../../errors.js'
import { requireMerchant, type Principal } from '../keys/keys.service.js'
import type { ProductsServiceDeps } from './products.deps.js'
import { createProductSync } from './products-sync.service.js'
import { createProductUpsert } from './products-upsert.service.js'

const productNotFound = (reference: string) =>
  marketplaceError('MARKETPLACE_PRODUCT_NOT_FOUND', `No product has the MerchantProductReference ${JSON.stringify(reference)}.`)

/** Products: the merchant's upsert (products-upsert.service.ts) and the channel's sync (products-sync.service.ts). */
export function createProductsService(deps: ProductsServiceDeps) {
  const { products, now } = deps
  const service = {
    ...createProductUpsert(deps),

    async get(principal: Principal, reference: string) {
      requireMerchant(principal, 'Reading a product')
      const product = await products.findWithParent(principal.customerId, reference)
      if (!product) throw productNotFound(reference)
      return product
    },

    /** Merchant: deactivates the product (and its children); it is kept and its reference stays taken. */
    async deactivate(principal: Principal, reference: string): Promise<void> {
      requireMerchant(principal, 'Deactivating a product')
      if (!(await products.deactivate(principal.customerId, reference, now()))) {
        throw productNotFound(reference)
      }
    },

    ...createProductSync(deps)
  }
  return service
}
export type ProductsService = ReturnType<typeof createProductsService>
