import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { AppError } from '../../core/errors/app-error.js'
import { acceptsGzip } from '../../core/http/accept-encoding.js'
import type { App } from '../../core/http/server.js'
import type { FulfilmentKind } from './db.js'
import type { Principal } from './modules/keys/keys.service.js'
import type { OrdersService } from './modules/orders/orders.service.js'
import type { FulfilmentInput, FulfilmentsService } from './modules/fulfilments/fulfilments.service.js'
import type { ProductsService } from './modules/products/products.service.js'
import { canonicaliseKeys, collectPropertyNames } from './case.js'
import { renderFulfilment, renderOrder, renderProductFields } from './render.js'
import {
  AcknowledgeBody, BackorderBody, BackorderView, CancellationBody, CancellationView, ChangesQuery, Collection, CreateOrderBody,
  EmptyEnvelope, ErrorEnvelope, ListQuery, OfferAckBody, OfferView, OrderView, PageQuery, ProductChangesEnvelope,
  ProductDataAckBody, ProductResponseView, RefParams, ReturnBody, ReturnView, ShipmentBody, ShipmentView, Single, UpsertProductsBody
} from './schemas.js'
import { normaliseDateTime } from './values.js'
import type { ReadCache } from './read-cache.js'

const MARKETPLACE_PREFIX = '/v2'
// Below this, compressing saves less than the header costs.
const GZIP_MIN_BYTES = 1024
const JSON_TYPE = 'application/json; charset=utf-8'
import type { ChannelProductRow } from './modules/products/products.repository.js'

export interface MarketplaceRouteDeps {
  orders: OrdersService
  fulfilments: FulfilmentsService
  products: ProductsService
  authenticate: (request: FastifyRequest) => Promise<Principal>
  pageSize: number
  /** Rendered responses of the big list reads, keyed by the customer's version counters. */
  cache: ReadCache
}

declare module 'fastify' {
  interface FastifyRequest {
    mpPrincipal?: Principal
  }
}

const security: Record<string, string[]>[] = [{ apikey: [] }, { apikeyHeader: [] }]
const principalOf = (request: FastifyRequest) => request.mpPrincipal as Principal
const errors = (...codes: number[]) => Object.fromEntries([400, 401, ...codes].map((c) => [c, ErrorEnvelope]))

const ok = <T>(content: T, statusCode = 200) => ({ StatusCode: statusCode, Success: true, Message: null, ValidationErrors: {}, Content: content })
const page = <T>(items: T[], total: number, perPage: number) => ({ ...ok(items), Count: items.length, TotalCount: total, ItemsPerPage: perPage })

const QUERY_NAMES = new Map([['createdsince', 'createdSince'], ['page', 'page'], ['pagesize', 'pageSize'], ['apikey', 'apikey']])
const BODY_SCHEMAS: TSchema[] = [CreateOrderBody, AcknowledgeBody, BackorderBody, CancellationBody, ShipmentBody, ReturnBody, UpsertProductsBody, ProductDataAckBody]

const FULFILMENTS: { kind: FulfilmentKind; path: string; tag: string; body: TSchema; view: TSchema; roles: string }[] = [
  { kind: 'backorder', path: 'backorders', tag: 'backorders', body: BackorderBody, view: BackorderView, roles: 'merchant' },
  { kind: 'cancellation', path: 'cancellations', tag: 'cancellations', body: CancellationBody, view: CancellationView, roles: 'merchant' },
  { kind: 'shipment', path: 'shipments', tag: 'shipments', body: ShipmentBody, view: ShipmentView, roles: 'merchant' },
  { kind: 'return', path: 'returns', tag: 'returns', body: ReturnBody, view: ReturnView, roles: 'merchant or channel' }
]

function channelProduct(row: ChannelProductRow) {
  // Extends the fresh object instead of copying it (1,000 per page); the serialiser orders the keys.
  return Object.assign(renderProductFields(row, row.parent_reference), { ChannelProductReference: row.channel_reference, ParentChannelReference: row.parent_channel_reference })
}

/** The first value no dialect can store faithfully: a non-finite number or a string with NUL. */
function unstorable(value: unknown, path: string, depth = 0): { pointer: string; problem: string } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { pointer: path, problem: 'must be a finite number' }
  if (typeof value === 'string') return value.includes('\u0000') ? { pointer: path, problem: 'must not contain NUL characters' } : undefined
  if (depth > 20 || value === null || typeof value !== 'object') return undefined
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key.includes('\u0000')) return { pointer: `${path}/${key.split('\u0000').join('')}`, problem: 'has a property name with a NUL character' }
    const found = unstorable(child, `${path}/${key}`, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/** Every route of /v2: thin handlers that map the request, call a service and wrap the result in the envelope. */
export function marketplaceRoutes(deps: MarketplaceRouteDeps) {
  const { orders, fulfilments, products, cache } = deps
  const names = collectPropertyNames(BODY_SCHEMAS)

  /**
   * Sends the rendering cached under (key, version), or renders the payload, serialises it with
   * the route's own response serialiser (the same bytes Fastify would send) and caches it.
   * Clients that accept gzip get the compressed bytes (compressed once per rendering): a page of
   * 1,000 products is ~0.6 MB of JSON.
   */
  async function sendCached(request: FastifyRequest, reply: FastifyReply, key: string, version: number, render: () => Promise<unknown>): Promise<FastifyReply> {
    let rendering = cache.get(key, version)
    if (rendering === undefined) {
      const serialised = reply.serialize(await render())
      rendering = cache.set(key, version, typeof serialised === 'string' ? Buffer.from(serialised) : Buffer.from(serialised as ArrayBuffer))
    }
    void reply.type(JSON_TYPE).header('vary', 'accept-encoding')
    if (rendering.body.length >= GZIP_MIN_BYTES && acceptsGzip(request.headers['accept-encoding'])) {
      return reply.header('content-encoding', 'gzip').send(await cache.gzipOf(rendering))
    }
    return reply.send(rendering.body)
  }

  return async function register(app: App) {
    app.addHook('onRequest', async (request) => {
      request.mpPrincipal = await deps.authenticate(request)
    })

    // Property names are matched case-insensitively (ASP.NET's behaviour): rewrite them to the
    // canonical spelling before validation. Output is always PascalCase.
    app.addHook('preValidation', async (request) => {
      if (request.body !== undefined && request.body !== null && typeof request.body === 'object') request.body = canonicaliseKeys(request.body, names)
      // POST /v2/products takes one product (G1) or an array of them (G2): validate as an array.
      if (request.method === 'POST' && request.routeOptions.url === `${MARKETPLACE_PREFIX}/products` && request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body)) {
        request.body = [request.body]
      }
      const query = request.query as Record<string, unknown>
      const canonical: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(query)) canonical[QUERY_NAMES.get(key.toLowerCase()) ?? key] = value
      // An unencoded "+" of a zone offset arrives as a space.
      if (typeof canonical.createdSince === 'string') canonical.createdSince = canonical.createdSince.replace(/ (\d{2}(:?\d{2})?)$/, '+$1')
      request.query = canonical
    })

    // The validator coerces strings such as "1e309" to Infinity without re-checking bounds, and
    // PostgreSQL cannot store NUL characters: refuse both before they reach a handler.
    app.addHook('preHandler', async (request) => {
      for (const [location, value] of [['params', request.params], ['querystring', request.query], ['body', request.body]] as const) {
        const found = unstorable(value, '')
        if (found !== undefined) {
          const field = found.pointer.replace(/^\//, '') || location
          throw new AppError('VALIDATION_FAILED', undefined, { details: [{ pointer: found.pointer || '/', location, message: `${field} ${found.problem}` }] })
        }
      }
    })

    // ---- orders
    app.post('/orders', {
      schema: { tags: ['orders'], summary: 'Channel: create an order (status NEW)', security, body: CreateOrderBody, response: { 201: Single(OrderView), ...errors(403, 404, 409) } }
    }, async (request, reply) => reply.code(201).send(ok(renderOrder(await orders.create(principalOf(request), request.body)), 201)))

    app.get('/orders/new', {
      schema: { tags: ['orders'], summary: 'Merchant: orders with status NEW (oldest first, paged)', security, querystring: PageQuery, response: { 200: Collection(OrderView), ...errors(403) } }
    }, async (request, reply) => {
      const principal = principalOf(request)
      const pageNo = request.query.page ?? 1
      // The version first: the list read after it is at least as new (see read-cache.ts).
      const version = await orders.listNewVersion(principal)
      return sendCached(request, reply, `orders/new|${principal.customerId}|${pageNo}|${deps.pageSize}`, version, async () => {
        const { orders: list, total } = await orders.listNew(principal, pageNo, deps.pageSize)
        return page(list.map(renderOrder), total, deps.pageSize)
      })
    })

    app.get('/orders/:merchantReference', {
      schema: { tags: ['orders'], summary: 'Merchant: one order by its merchant reference', security, params: RefParams, response: { 200: Single(OrderView), ...errors(403, 404) } }
    }, async (request) => ok(renderOrder(await orders.get(principalOf(request), request.params.merchantReference))))

    app.post('/orders/acknowledge', {
      schema: { tags: ['orders'], summary: 'Merchant: acknowledge a NEW order with order and line references (→ IN_PROGRESS)', security, body: AcknowledgeBody, response: { 201: Single(OrderView), ...errors(403, 404, 409) } }
    }, async (request, reply) => reply.code(201).send(ok(renderOrder(await orders.acknowledge(principalOf(request), request.body)), 201)))

    // ---- backorders, cancellations, shipments, returns
    for (const f of FULFILMENTS) {
      app.post(`/${f.path}`, {
        schema: { tags: [f.tag], summary: `Create a ${f.kind} (${f.roles} keys)`, security, body: f.body, response: { 201: Single(f.view), ...errors(403, 404, 409) } }
      }, async (request, reply) => {
        const created = await fulfilments.create(f.kind, principalOf(request), request.body as FulfilmentInput[typeof f.kind])
        return reply.code(201).send(ok(renderFulfilment(f.kind, created), 201))
      })

      app.get(`/${f.path}/:merchantReference`, {
        schema: { tags: [f.tag], summary: `One ${f.kind} by its reference`, security, params: RefParams, response: { 200: Single(f.view), ...errors(404) } }
      }, async (request) => ok(renderFulfilment(f.kind, await fulfilments.get(f.kind, principalOf(request), (request.params as { merchantReference: string }).merchantReference))))

      app.get(`/${f.path}`, {
        schema: { tags: [f.tag], summary: `${f.tag} created since createdSince (inclusive; oldest first; paged)`, security, querystring: ListQuery, response: { 200: Collection(f.view), ...errors() } }
      }, async (request) => {
        const query = request.query as { createdSince: string; page?: number }
        const since = normaliseDateTime(query.createdSince, 'createdSince')
        const { items, total } = await fulfilments.list(f.kind, principalOf(request), since, query.page ?? 1, deps.pageSize)
        return page(items.map((item) => renderFulfilment(f.kind, item)), total, deps.pageSize)
      })
    }

    // ---- products (merchant)
    app.post('/products', {
      schema: { tags: ['products'], summary: 'Merchant: create or update products (a parent with Children, or an array)', security, body: UpsertProductsBody, response: { 200: Collection(ProductResponseView), ...errors(403, 404, 409) } }
    }, async (request) => {
      const written = await products.upsert(principalOf(request), request.body)
      const views = written.map((p) => ({ ...renderProductFields(p, p.parent_reference), ChannelProductReference: null, IsActive: p.is_active === 1 }))
      return page(views, views.length, views.length)
    })

    // ---- product sync (channel)
    app.get('/products/data', {
      schema: { tags: ['product sync'], summary: 'Channel: products to create, update and remove since your last acknowledgement', security, querystring: ChangesQuery, response: { 200: ProductChangesEnvelope, ...errors(403) } }
    }, async (request, reply) => {
      const principal = principalOf(request)
      const perPage = request.query.pageSize ?? deps.pageSize
      const pageNo = request.query.page ?? 1
      // Records the channel's "seen up to" mark on every GET, cached or not, and reads the version first.
      const { channelId, version } = await products.beginChanges(principal)
      return sendCached(request, reply, `products/data|${principal.customerId}|${channelId}|${pageNo}|${perPage}`, version, async () => {
        const changes = await products.listChanges(principal.customerId, channelId, pageNo, perPage)
        return {
          ...ok({ ToBeCreated: changes.created.map(channelProduct), ToBeUpdated: changes.updated.map(channelProduct), ToBeRemoved: changes.removed.map(channelProduct) }),
          ToBeCreatedTotalCount: changes.totals.created,
          ToBeUpdatedTotalCount: changes.totals.updated,
          ToBeRemovedTotalCount: changes.totals.removed,
          ItemsPerPage: perPage
        }
      })
    })

    app.post('/products/data', {
      schema: { tags: ['product sync'], summary: 'Channel: acknowledge processed products (Created, Updated, Removed)', security, body: ProductDataAckBody, response: { 201: EmptyEnvelope, ...errors(403, 404, 409) } }
    }, async (request, reply) => {
      const counts = await products.acknowledgeData(principalOf(request), request.body)
      return reply.code(201).send({ ...ok(null, 201), Message: `Acknowledged ${counts.created} created, ${counts.updated} updated and ${counts.removed} removed products.` })
    })

    app.get('/products/offers', {
      schema: { tags: ['product sync'], summary: 'Channel: price and stock changes of products you created', security, querystring: ChangesQuery, response: { 200: Collection(OfferView), ...errors(403) } }
    }, async (request) => {
      const perPage = request.query.pageSize ?? deps.pageSize
      const { rows, total } = await products.offers(principalOf(request), request.query.page ?? 1, perPage)
      const items = rows.map((r) => ({ ChannelProductReference: r.channel_reference, MerchantProductReference: r.merchant_reference, Price: r.price_cents === null ? null : Number(r.price_cents) / 100, Stock: r.stock }))
      return page(items, total, perPage)
    })

    app.post('/products/offers', {
      schema: { tags: ['product sync'], summary: 'Channel: acknowledge updated offers by ChannelReference (a JSON array of strings)', security, body: OfferAckBody, response: { 201: EmptyEnvelope, ...errors(403) } }
    }, async (request, reply) => {
      const count = await products.acknowledgeOffers(principalOf(request), request.body)
      return reply.code(201).send({ ...ok(null, 201), Message: `Acknowledged ${count} offers.` })
    })

    app.get('/products/:merchantReference', {
      schema: { tags: ['products'], summary: 'Merchant: one product (also when deactivated: IsActive false)', security, params: RefParams, response: { 200: Single(ProductResponseView), ...errors(403, 404) } }
    }, async (request) => {
      const p = await products.get(principalOf(request), request.params.merchantReference)
      return ok({ ...renderProductFields(p, p.parent_reference), ChannelProductReference: null, IsActive: p.is_active === 1 })
    })

    app.delete('/products/:merchantReference', {
      schema: { tags: ['products'], summary: 'Merchant: deactivate a product and its children (kept; reference never reusable)', security, params: RefParams, response: { 200: EmptyEnvelope, ...errors(403, 404) } }
    }, async (request) => {
      await products.deactivate(principalOf(request), request.params.merchantReference)
      return { ...ok(null), Message: `Product ${request.params.merchantReference} is deactivated.` }
    })

    void Type
  }
}
