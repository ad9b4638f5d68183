import type { Static } from 'typebox'
import type { FulfilmentKind, OrderLineRow } from '../../db.js'
import { invalid, marketplaceError, uniqueViolationAs, type MarketplaceErrorCode } from '../../errors.js'
import { normaliseDateTime } from '../../http/fields.js'
import { optionalCents } from '../../money.js'
import { requireChannel, requireMerchant, type Principal } from '../keys/keys.service.js'
import { isOpenOrderStatus, openQuantity, type OrderScope, type OrdersService, type OrderWithLines } from '../orders/orders.service.js'
import type { BackorderBody, CancellationBody, ReturnBody, ShipmentBody } from './fulfilments.schemas.js'
import type { FulfilmentsRepository, FulfilmentWithLines } from './fulfilments.repository.js'

export interface FulfilmentsServiceDeps {
  fulfilments: FulfilmentsRepository
  orders: Pick<OrdersService, 'withLockedOrder' | 'refreshStatuses'>
  now: () => string
}

export type FulfilmentInput = {
  backorder: Static<typeof BackorderBody>
  cancellation: Static<typeof CancellationBody>
  shipment: Static<typeof ShipmentBody>
  return: Static<typeof ReturnBody>
}

type AnyLine = {
  MerchantOrderLineReference?: string | undefined
  ChannelOrderLineReference?: string | undefined
  MerchantProductReference?: string | undefined
  ChannelProductReference?: string | undefined
  Quantity: number
} & Record<string, unknown>
type AnyInput = { MerchantOrderReference?: string | undefined; ChannelOrderReference?: string | undefined; Lines: AnyLine[] } & Record<
  string,
  unknown
>

const NOT_FOUND: Record<FulfilmentKind, MarketplaceErrorCode> = {
  backorder: 'MARKETPLACE_BACKORDER_NOT_FOUND',
  cancellation: 'MARKETPLACE_CANCELLATION_NOT_FOUND',
  shipment: 'MARKETPLACE_SHIPMENT_NOT_FOUND',
  return: 'MARKETPLACE_RETURN_NOT_FOUND'
}
const REFERENCE_FIELD: Record<FulfilmentKind, string> = {
  backorder: 'MerchantBackorderReference',
  cancellation: 'MerchantReference',
  shipment: 'MerchantShipmentReference',
  return: 'MerchantReturnReference'
}
const VERB: Record<FulfilmentKind, string> = { backorder: 'backorder', cancellation: 'cancel', shipment: 'ship', return: 'return' }

/** How many units of a line this kind may still move, and a sentence saying why. */
function available(kind: FulfilmentKind, line: OrderLineRow): { max: number; why: string } {
  const tally = `ordered ${line.quantity}, shipped ${line.shipped_quantity}, cancelled ${line.cancelled_quantity}`
  switch (kind) {
    case 'shipment':
    case 'cancellation':
      return { max: openQuantity(line), why: `${openQuantity(line)} open (${tally})` }
    case 'backorder': {
      const max = openQuantity(line) - line.backorder_quantity
      return { max, why: `${max} open and not yet backordered (${tally}, backordered ${line.backorder_quantity})` }
    }
    case 'return': {
      const max = line.shipped_quantity - line.returned_quantity
      return { max, why: `${max} shipped and not yet returned (shipped ${line.shipped_quantity}, returned ${line.returned_quantity})` }
    }
  }
}

function kindData(kind: FulfilmentKind, input: AnyInput): Record<string, unknown> {
  switch (kind) {
    case 'backorder':
      return {}
    case 'cancellation':
      return { Reason: input.Reason }
    case 'shipment':
      return {
        TrackTraceNo: input.TrackTraceNo,
        TrackTraceUrl: input.TrackTraceUrl,
        Method: input.Method,
        ShipmentMethod: input.ShipmentMethod,
        ShipmentMethodId: input.ShipmentMethodId
      }
    case 'return':
      return {
        Status: input.Status ?? 'DECLARED',
        Reason: input.Reason ?? 'OTHER',
        CustomerComment: input.CustomerComment,
        MerchantComment: input.MerchantComment,
        RefundInclVatCents: optionalCents(input.RefundInclVat as number | undefined, 'RefundInclVat'),
        RefundExclVatCents: optionalCents(input.RefundExclVat as number | undefined, 'RefundExclVat')
      }
  }
}

function lineData(kind: FulfilmentKind, line: AnyLine, i: number): Record<string, unknown> {
  if (kind === 'backorder') return { ExpectedDate: line.ExpectedDate }
  if (kind !== 'return') return {}
  const accepted = line.AcceptedQuantity as number | undefined
  const rejected = line.RejectedQuantity as number | undefined
  if ((accepted ?? 0) + (rejected ?? 0) > line.Quantity)
    throw invalid(`Lines[${i}].AcceptedQuantity`, `AcceptedQuantity + RejectedQuantity exceeds the returned Quantity ${line.Quantity}`)
  return {
    AcceptedQuantity: accepted,
    RejectedQuantity: rejected,
    RefundInclVatCents: optionalCents(line.RefundInclVat as number | undefined, `Lines[${i}].RefundInclVat`),
    RefundExclVatCents: optionalCents(line.RefundExclVat as number | undefined, `Lines[${i}].RefundExclVat`),
    ManualRefundInclVatCents: optionalCents(line.ManualRefundInclVat as number | undefined, `Lines[${i}].ManualRefundInclVat`),
    ManualRefundExclVatCents: optionalCents(line.ManualRefundExclVat as number | undefined, `Lines[${i}].ManualRefundExclVat`)
  }
}

/**
 * Backorders, cancellations, shipments and returns: each moves line quantities under the rules of
 * the order (reference §4), atomically, with the order row locked while it checks and writes.
 */
export function createFulfilmentsService({ fulfilments, orders, now }: FulfilmentsServiceDeps) {
  function scopeOf(principal: Principal): OrderScope {
    return principal.role === 'channel'
      ? { customerId: principal.customerId, channelId: principal.channelId }
      : { customerId: principal.customerId }
  }

  const service = {
    async create<K extends FulfilmentKind>(kind: K, principal: Principal, body: FulfilmentInput[K]): Promise<FulfilmentWithLines> {
      const input = body as unknown as AnyInput
      if (kind !== 'return') requireMerchant(principal, `Creating a ${kind}`)
      const channelKey = principal.role === 'channel'
      const merchantReference = (input[REFERENCE_FIELD[kind]] as string | undefined) ?? null
      const channelReference = kind === 'return' ? ((input.ChannelReturnReference as string | undefined) ?? null) : null
      if (merchantReference === null && !(channelKey && channelReference !== null)) {
        throw invalid(REFERENCE_FIELD[kind], channelKey ? 'give MerchantReturnReference or ChannelReturnReference' : 'is required')
      }
      if (!input.MerchantOrderReference && !(channelKey && input.ChannelOrderReference)) {
        throw invalid('MerchantOrderReference', channelKey ? 'give MerchantOrderReference or ChannelOrderReference' : 'is required')
      }
      if (!input.Lines.some((l) => l.Quantity > 0)) throw invalid('Lines', `nothing to ${VERB[kind]}: every line has Quantity 0`)

      const scope = scopeOf(principal)
      const find = input.MerchantOrderReference
        ? { merchantReference: input.MerchantOrderReference }
        : { channelReference: input.ChannelOrderReference as string }
      const at = now()
      const id = await uniqueViolationAs(
        () =>
          orders.withLockedOrder(scope, find, async (trx, order) => {
            const orderName = JSON.stringify(input.MerchantOrderReference ?? input.ChannelOrderReference)
            if (!order)
              throw marketplaceError('MARKETPLACE_ORDER_NOT_FOUND', `No order ${orderName} exists${channelKey ? ' for this channel' : ''}.`)
            if (input.ChannelOrderReference && input.MerchantOrderReference && order.channel_reference !== input.ChannelOrderReference) {
              throw invalid(
                'ChannelOrderReference',
                `order ${JSON.stringify(input.MerchantOrderReference)} has ChannelReference ${JSON.stringify(order.channel_reference)}, ` +
                  `not ${JSON.stringify(input.ChannelOrderReference)}`
              )
            }
            if (kind !== 'return' && !isOpenOrderStatus(order.status)) {
              throw marketplaceError(
                'MARKETPLACE_ORDER_NOT_OPEN',
                `Order ${orderName} is ${order.status}: ` +
                  `a ${kind} is only possible while the order is NEW, IN_PROGRESS, IN_BACKORDER or IN_COMBI.`
              )
            }
            const byChannelProduct = input.Lines.some((l) => l.ChannelProductReference !== undefined)
              ? await fulfilments.channelProductReferences(trx, principal.customerId, order.channel_id, [
                  ...new Set(order.lines.map((l) => l.merchant_product_reference))
                ])
              : new Map<string, string>()
            const moves = matchLines(kind, order, input, byChannelProduct)
            const fulfilmentId = await fulfilments.insert(
              trx,
              {
                customer_id: principal.customerId,
                channel_id: order.channel_id,
                order_id: order.id,
                kind,
                merchant_reference: merchantReference,
                channel_reference: channelReference,
                data: JSON.stringify(kindData(kind, input)),
                created_at: at
              },
              moves.map((m) => ({ order_line_id: m.line.id, quantity: m.quantity, data: JSON.stringify(m.data) }))
            )
            for (const move of moves) {
              if (move.quantity === 0) continue
              if (!(await fulfilments.applyLine(trx, kind, move.line.id, move.quantity))) {
                throw marketplaceError(
                  'MARKETPLACE_QUANTITY_EXCEEDED',
                  `Lines[${move.index}].Quantity: cannot ${VERB[kind]} ${move.quantity} of line ${lineName(move.line)}: ` +
                    'it changed concurrently and no longer has that much available.'
                )
              }
            }
            await orders.refreshStatuses(trx, order.id, order.acknowledged_at !== null, at)
            return fulfilmentId
          }),
        () => {
          const which =
            merchantReference !== null
              ? `${REFERENCE_FIELD[kind]} ${JSON.stringify(merchantReference)}`
              : `ChannelReturnReference ${JSON.stringify(channelReference)}`
          return marketplaceError('MARKETPLACE_DUPLICATE_MERCHANT_REFERENCE', `A ${kind} with ${which} already exists.`)
        }
      )
      return (await fulfilments.findById(id)) as FulfilmentWithLines
    },

    /** POST /v2/returns/merchant and /v2/returns/channel (2016 clients): a return, by a key of that role only. */
    async createReturnAs(
      role: 'merchant' | 'channel',
      principal: Principal,
      body: FulfilmentInput['return']
    ): Promise<FulfilmentWithLines> {
      if (role === 'merchant') requireMerchant(principal, 'Creating a return at /v2/returns/merchant')
      else requireChannel(principal, 'Creating a return at /v2/returns/channel')
      return service.create('return', principal, body)
    },

    /** GET /v2/returns/merchant and /v2/returns/channel with createdSince: the returns list, for a key of that role. */
    listReturnsAs(role: 'merchant' | 'channel', principal: Principal, createdSince: string, page: number, pageSize: number) {
      if (role === 'merchant') requireMerchant(principal, 'Listing returns at /v2/returns/merchant')
      else requireChannel(principal, 'Listing returns at /v2/returns/channel')
      return service.list('return', principal, createdSince, page, pageSize)
    },

    async get(kind: FulfilmentKind, principal: Principal, reference: string): Promise<FulfilmentWithLines> {
      const found = await fulfilments.findOne(scopeOf(principal), kind, reference, kind === 'return')
      if (!found) throw marketplaceError(NOT_FOUND[kind], `No ${kind} has the reference ${JSON.stringify(reference)}.`)
      return found
    },

    /** Created at or after `createdSince` (ISO-8601), oldest first, one page. */
    list(kind: FulfilmentKind, principal: Principal, createdSince: string, page: number, pageSize: number) {
      const since = normaliseDateTime(createdSince, 'createdSince')
      return fulfilments.listSince(scopeOf(principal), kind, since, (page - 1) * pageSize, pageSize)
    }
  }
  return service
}
export type FulfilmentsService = ReturnType<typeof createFulfilmentsService>

const lineName = (line: OrderLineRow) => JSON.stringify(line.merchant_reference ?? line.channel_reference)

/**
 * The order line a request line names: by MerchantOrderLineReference or ChannelOrderLineReference,
 * or (2016 clients) by its product — MerchantProductReference, or ChannelProductReference at the
 * order's channel — when the order has exactly one line of it. A MerchantOrderLineReference that
 * names no line is tried as a product reference too: the 2016 clients (BackOrderLine) know a line
 * by its product or by the reference its line-less acknowledgement gave it (`<order>-<n>`).
 */
function findLine(
  order: OrderWithLines,
  requested: AnyLine,
  index: number,
  byChannelProduct: Map<string, string>
): { line: OrderLineRow; field: string; reference: string; byProduct: boolean } {
  const ofProduct = (reference: string) => order.lines.filter((l) => l.merchant_product_reference === reference)
  const notFound = (field: string, reference: string) =>
    marketplaceError(
      'MARKETPLACE_ORDER_LINE_NOT_FOUND',
      `Lines[${index}].${field}: order ${JSON.stringify(order.merchant_reference ?? order.channel_reference)} ` +
        `has no line ${JSON.stringify(reference)}.`,
      { details: [{ pointer: `/Lines/${index}/${field}`, message: `no line ${JSON.stringify(reference)} on this order` }] }
    )
  const single = (field: string, reference: string, lines: OrderLineRow[]) => {
    if (lines.length > 1)
      throw invalid(
        `Lines[${index}].${field}`,
        `the order has ${lines.length} lines of product ${JSON.stringify(reference)}; ` +
          'name the line by MerchantOrderLineReference or ChannelOrderLineReference'
      )
    const line = lines[0]
    if (!line) throw notFound(field, reference)
    return { line, field, reference, byProduct: true }
  }
  if (requested.MerchantOrderLineReference !== undefined) {
    const reference = requested.MerchantOrderLineReference
    const line = order.lines.find((l) => l.merchant_reference === reference)
    if (line) return { line, field: 'MerchantOrderLineReference', reference, byProduct: false }
    return single('MerchantOrderLineReference', reference, ofProduct(reference))
  }
  if (requested.ChannelOrderLineReference !== undefined) {
    const reference = requested.ChannelOrderLineReference
    const line = order.lines.find((l) => l.channel_reference === reference)
    if (!line) throw notFound('ChannelOrderLineReference', reference)
    return { line, field: 'ChannelOrderLineReference', reference, byProduct: false }
  }
  if (requested.MerchantProductReference !== undefined)
    return single('MerchantProductReference', requested.MerchantProductReference, ofProduct(requested.MerchantProductReference))
  if (requested.ChannelProductReference !== undefined) {
    const reference = requested.ChannelProductReference
    const merchantReference = [...byChannelProduct].find(([, channel]) => channel === reference)?.[0]
    return single('ChannelProductReference', reference, merchantReference === undefined ? [] : ofProduct(merchantReference))
  }
  throw invalid(
    `Lines[${index}].MerchantOrderLineReference`,
    "give MerchantOrderLineReference, ChannelOrderLineReference or the line's MerchantProductReference"
  )
}

/** Maps each request line to an order line and checks its quantity against what is available. */
function matchLines(kind: FulfilmentKind, order: OrderWithLines, input: AnyInput, byChannelProduct: Map<string, string>) {
  const canShipPartial = (JSON.parse(order.data) as { CanShipPartialOrderLines?: boolean }).CanShipPartialOrderLines !== false
  const used = new Set<number>()
  return input.Lines.map((requested, index) => {
    const { line, reference, byProduct } = findLine(order, requested, index, byChannelProduct)
    if (used.has(line.id))
      throw invalid(`Lines[${index}]`, `line ${JSON.stringify(reference)} is named twice; give its total quantity once`)
    used.add(line.id)
    const { max, why } = available(kind, line)
    if (requested.Quantity > max) {
      throw marketplaceError(
        'MARKETPLACE_QUANTITY_EXCEEDED',
        `Lines[${index}].Quantity: cannot ${VERB[kind]} ${requested.Quantity} of line ${JSON.stringify(reference)}: ${why}.`,
        { details: [{ pointer: `/Lines/${index}/Quantity`, message: `cannot ${VERB[kind]} ${requested.Quantity}: ${why}` }] }
      )
    }
    if (kind === 'shipment' && !canShipPartial && requested.Quantity > 0 && requested.Quantity !== openQuantity(line)) {
      throw invalid(
        `Lines[${index}].Quantity`,
        'this order does not allow partial line shipments (CanShipPartialOrderLines is false): ' +
          `ship all ${openQuantity(line)} open units of line ${JSON.stringify(reference)}`
      )
    }
    const data = lineData(kind, requested, index)
    // A product named in MerchantOrderLineReference (2016 clients): kept, so the line answers with the reference it was named by.
    if (byProduct && requested.MerchantOrderLineReference !== undefined)
      data.MerchantOrderLineReference = requested.MerchantOrderLineReference
    return { index, line, quantity: requested.Quantity, data }
  })
}
