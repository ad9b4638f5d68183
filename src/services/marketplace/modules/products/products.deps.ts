import type { ProductsRepository } from './products.repository.js'

/** What the products service is built from; its two parts (products-upsert, products-sync) take the same. */
export interface ProductsServiceDeps {
  products: ProductsRepository
  now: () => string
}
