import type { App } from '../../../../core/http/server.js'
import type { ApiKeyGuard } from '../../http/api-key.js'
import { Collection, errorResponses, ok, page, security, Single } from '../../http/envelope.js'
import { RefParams } from '../../http/fields.js'
import { sendCached, type ReadCache } from '../../http/read-cache.js'
import { renderOrder } from './orders.render.js'
import { AcknowledgeBody, CreateOrderBody, OrderView, PageQuery } from './orders.schemas.js'
import type { OrdersService } from './orders.service.js'

export interface OrdersRouteDeps {
  orders: OrdersService
  apiKey: ApiKeyGuard
  /** Rendered GET /v2/orders/new pages, keyed by the customer's orders version. */
  cache: ReadCache
  pageSize: number
}

/** /v2/orders: channels create orders; merchants list the new ones, read and acknowledge them. */
export function ordersRoutes(app: App, { orders, apiKey, cache, pageSize }: OrdersRouteDeps): void {
  app.post(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: 'Channel: create an order (status NEW)',
        security,
        body: CreateOrderBody,
        response: { 201: Single(OrderView), ...errorResponses(403, 404, 409) }
      }
    },
    async (request, reply) => reply.code(201).send(ok(renderOrder(await orders.create(apiKey.of(request), request.body)), 201))
  )

  app.get(
    '/orders/new',
    {
      schema: {
        tags: ['orders'],
        summary: 'Merchant: orders with status NEW (oldest first, paged)',
        security,
        querystring: PageQuery,
        response: { 200: Collection(OrderView), ...errorResponses(403) }
      }
    },
    async (request, reply) => {
      const principal = apiKey.of(request)
      const pageNo = request.query.page ?? 1
      // The version first: the list read after it is at least as new (see http/read-cache.ts).
      const version = await orders.listNewVersion(principal)
      return sendCached(cache, request, reply, `orders/new|${principal.customerId}|${pageNo}|${pageSize}`, version, async () => {
        const { orders: list, total } = await orders.listNew(principal, pageNo, pageSize)
        return page(list.map(renderOrder), total, pageSize)
      })
    }
  )

  app.get(
    '/orders/:merchantReference',
    {
      schema: {
        tags: ['orders'],
        summary: 'Merchant: one order by its merchant reference',
        security,
        params: RefParams,
        response: { 200: Single(OrderView), ...errorResponses(403, 404) }
      }
    },
    async (request) => ok(renderOrder(await orders.get(apiKey.of(request), request.params.merchantReference)))
  )

  app.post(
    '/orders/acknowledge',
    {
      schema: {
        tags: ['orders'],
        summary: 'Merchant: acknowledge a NEW order with order and line references (→ IN_PROGRESS)',
        security,
        body: AcknowledgeBody,
        response: { 201: Single(OrderView), ...errorResponses(403, 404, 409) }
      }
    },
    async (request, reply) => reply.code(201).send(ok(renderOrder(await orders.acknowledge(apiKey.of(request), request.body)), 201))
  )
}
