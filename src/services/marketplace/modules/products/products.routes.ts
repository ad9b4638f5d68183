import type { App } from '../../../../core/http/server.js'
import type { ApiKeyGuard } from '../../http/api-key.js'
import type { MarketplaceCompat } from '../../config.js'
import { moveAliasInEach } from '../../http/aliases.js'
import { Collection, done, EmptyEnvelope, errorResponses, ok, page, security, Single } from '../../http/envelope.js'
import { RefParams } from '../../http/fields.js'
import { sendCached, type ReadCache } from '../../http/read-cache.js'
import { renderChannelProduct, renderMerchantProduct, renderOffer, renderRemovedProduct, renderUpsertResult } from './products.render.js'
import { ChangesQuery, OfferAckBody, OfferView, ProductDataAckBody, productViews, UpsertProductsBody } from './products.schemas.js'
import type { ProductsService } from './products.service.js'

export interface ProductsRouteDeps {
  products: ProductsService
  apiKey: ApiKeyGuard
  /** Rendered GET /v2/products/data pages, keyed by the customer's products version. */
  cache: ReadCache
  pageSize: number
  /** 'g2' (default): ToBeRemoved as references, POST answers ProductCreationResult, ExtraData as a list; 'g1': the G1 shapes. */
  compat: MarketplaceCompat
}

/** /v2/products: the merchant's catalogue, and the channel's sync of products and offers. */
export function productsRoutes(app: App, { products, apiKey, cache, pageSize, compat }: ProductsRouteDeps): void {
  const { ProductResponseView, ProductChangesEnvelope, UpsertResponse } = productViews(compat)
  const merchantView = (product: Parameters<typeof renderMerchantProduct>[0]) => renderMerchantProduct(product, compat)
  const channelView = (row: Parameters<typeof renderChannelProduct>[0]) => renderChannelProduct(row, compat)

  app.post(
    '/products',
    {
      schema: {
        tags: ['products'],
        summary: 'Merchant: create or update products (a parent with Children, or an array)',
        security,
        body: UpsertProductsBody,
        response: { 200: UpsertResponse, ...errorResponses(403, 404, 409) }
      },
      // One product (G1) or an array of them (G2): validated as an array.
      preValidation: async (request) => {
        if (request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body)) request.body = [request.body]
        moveAliasInEach(request.body, 'MerchantReference', 'MerchantProductReference')
        if (Array.isArray(request.body))
          request.body.forEach((item, i) =>
            moveAliasInEach(
              (item as { Children?: unknown } | null)?.Children,
              'MerchantReference',
              'MerchantProductReference',
              `[${i}].Children`
            )
          )
      }
    },
    async (request) => {
      const result = renderUpsertResult(await products.upsert(apiKey.of(request), request.body), compat)
      return Array.isArray(result) ? page(result, result.length, result.length) : ok(result)
    }
  )

  // ---- product sync (channel)
  app.get(
    '/products/data',
    {
      schema: {
        tags: ['product sync'],
        summary: 'Channel: products to create, update and remove since your last acknowledgement',
        security,
        querystring: ChangesQuery,
        response: { 200: ProductChangesEnvelope, ...errorResponses(403) }
      }
    },
    async (request, reply) => {
      const principal = apiKey.of(request)
      const perPage = request.query.pageSize ?? request.query.maxCount ?? pageSize
      const pageNo = request.query.page ?? 1
      // Records the channel's "seen up to" mark on every GET, cached or not, and reads the version first.
      const { channelId, version } = await products.beginChanges(principal)
      return sendCached(
        cache,
        request,
        reply,
        `products/data|${principal.customerId}|${channelId}|${pageNo}|${perPage}`,
        version,
        async () => {
          const changes = await products.listChanges(principal, pageNo, perPage)
          return {
            ...ok({
              ToBeCreated: changes.created.map(channelView),
              ToBeUpdated: changes.updated.map(channelView),
              ToBeRemoved: changes.removed.map((row) => renderRemovedProduct(row, compat))
            }),
            ToBeCreatedTotalCount: changes.totals.created,
            ToBeUpdatedTotalCount: changes.totals.updated,
            ToBeRemovedTotalCount: changes.totals.removed,
            ItemsPerPage: perPage
          }
        }
      )
    }
  )

  app.post(
    '/products/data',
    {
      schema: {
        tags: ['product sync'],
        summary: 'Channel: acknowledge processed products (Created, Updated, Removed)',
        security,
        body: ProductDataAckBody,
        response: { 201: EmptyEnvelope, ...errorResponses(403, 404, 409) }
      }
    },
    async (request, reply) => {
      const counts = await products.acknowledgeData(apiKey.of(request), request.body)
      return reply
        .code(201)
        .send(done(`Acknowledged ${counts.created} created, ${counts.updated} updated and ${counts.removed} removed products.`))
    }
  )

  app.get(
    '/products/offers',
    {
      schema: {
        tags: ['product sync'],
        summary: 'Channel: price and stock changes of products you created',
        security,
        querystring: ChangesQuery,
        response: { 200: Collection(OfferView), ...errorResponses(403) }
      }
    },
    async (request) => {
      const perPage = request.query.pageSize ?? pageSize
      const { rows, total } = await products.offers(apiKey.of(request), request.query.page ?? 1, perPage)
      return page(rows.map(renderOffer), total, perPage)
    }
  )

  app.post(
    '/products/offers',
    {
      schema: {
        tags: ['product sync'],
        summary: 'Channel: acknowledge updated offers by ChannelReference (a JSON array of strings)',
        security,
        body: OfferAckBody,
        response: { 201: EmptyEnvelope, ...errorResponses(403) }
      }
    },
    async (request, reply) => {
      const count = await products.acknowledgeOffers(apiKey.of(request), request.body)
      return reply.code(201).send(done(`Acknowledged ${count} offers.`))
    }
  )

  // ---- products (merchant); /products/merchant/{ref} is the 2016 clients' path of the same read
  for (const path of ['/products/:merchantReference', '/products/merchant/:merchantReference']) {
    app.get(
      path,
      {
        schema: {
          tags: ['products'],
          summary: 'Merchant: one product (also when deactivated: IsActive false)',
          security,
          params: RefParams,
          response: { 200: Single(ProductResponseView), ...errorResponses(403, 404) }
        }
      },
      async (request) =>
        ok(merchantView(await products.get(apiKey.of(request), (request.params as { merchantReference: string }).merchantReference)))
    )
  }

  app.delete(
    '/products/:merchantReference',
    {
      schema: {
        tags: ['products'],
        summary: 'Merchant: deactivate a product and its children (kept; reference never reusable)',
        security,
        params: RefParams,
        response: { 200: EmptyEnvelope, ...errorResponses(403, 404) }
      }
    },
    async (request) => {
      await products.deactivate(apiKey.of(request), request.params.merchantReference)
      return done(`Product ${request.params.merchantReference} is deactivated.`, 200)
    }
  )
}
