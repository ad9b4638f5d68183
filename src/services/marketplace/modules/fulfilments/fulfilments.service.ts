import type { Static } from 'typebox'
import { AppError } from '../../../../core/errors/app-error.js'
import { isUniqueViolation } from '../../../../core/db/errors.js'
import type { ErrorCode } from '../../../../core/errors/catalogue.js'
import type { FulfilmentKind, OrderLineRow } from '../../db.js'
import { requireMerchant } from '../../auth.js'
import type { FulfilmentWithLines } from '../../render.js'
import type { BackorderBody, CancellationBody, ReturnBody, ShipmentBody } from '../../schemas.js'
import { isOpenOrderStatus, openQuantity } from '../../status.js'
import { invalid, optionalCents } from '../../values.js'
import type { Principal } from '../keys/keys.service.js'
import type { OrdersRepository, OrderScope, OrderWithLines } from '../orders/orders.repository.js'
import type { FulfilmentsRepository } from './fulfilments.repository.js'

export interface FulfilmentsServiceDeps {
  fulfilments: FulfilmentsRepository
  orders: OrdersRepository
  now: () => string
}

export type FulfilmentInput = {
  backorder: Static<typeof BackorderBody>
  cancellation: Static<typeof CancellationBody>
  shipment: Static<typeof ShipmentBody>
  return: Static<typeof ReturnBody>
}

type AnyLine = { MerchantOrderLineReference?: string | undefined; ChannelOrderLineReference?: string | undefined; Quantity: number } & Record<string, unknown>
type AnyInput = { MerchantOrderReference?: string | undefined; ChannelOrderReference?: string | undefined; Lines: AnyLine[] } & Record<string, unknown>

const NOT_FOUND: Record<FulfilmentKind, ErrorCode> = {
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
    case 'backorder': return {}
    case 'cancellation': return { Reason: input.Reason }
    case 'shipment': return { TrackTraceNo: input.TrackTraceNo, TrackTraceUrl: input.TrackTraceUrl, Method: input.Method, ShipmentMethod: input.ShipmentMethod, ShipmentMethodId: input.ShipmentMethodId }
    case 'return': return {
      Status: input.Status ?? 'DECLARED', Reason: input.Reason ?? 'OTHER', CustomerComment: input.CustomerComment, MerchantComment: input.MerchantComment,
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
  if ((accepted ?? 0) + (rejected ?? 0) > line.Quantity) throw invalid(`Lines[${i}].AcceptedQuantity`, `AcceptedQuantity + RejectedQuantity exceeds the returned Quantity ${line.Quantity}`)
  return {
    AcceptedQuantity: accepted, RejectedQuantity: rejected,
    RefundInclVatCents: optionalCents(line.RefundInclVat as number | undefined, `Lines[${i}].RefundInclVat`),
    RefundExclVatCents: optionalCents(line.RefundExclVat as number | undefined, `Lines[${i}].RefundExclVat`)
  }
}

/**
 * Backorders, cancellations, shipments and returns: each moves line quantities under the rules of
 * the order (reference §4), atomically, with the order row locked while it checks and writes.
 */
export function createFulfilmentsService({ fulfilments, orders, now }: FulfilmentsServiceDeps) {
  function scopeOf(principal: Principal): OrderScope {
    return principal.role === 'channel' ? { customerId: principal.customerId, channelId: principal.channelId } : { customerId: principal.customerId }
  }

  return {
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
      const find = input.MerchantOrderReference ? { merchantReference: input.MerchantOrderReference } : { channelReference: input.ChannelOrderReference as string }
      const at = now()
      let id: number
      try {
        id = await orders.withLockedOrder(scope, find, async (trx, order) => {
          const orderName = JSON.stringify(input.MerchantOrderReference ?? input.ChannelOrderReference)
          if (!order) throw new AppError('MARKETPLACE_ORDER_NOT_FOUND', `No order ${orderName} exists${channelKey ? ' for this channel' : ''}.`)
          if (input.ChannelOrderReference && input.MerchantOrderReference && order.channel_reference !== input.ChannelOrderReference) {
            throw invalid('ChannelOrderReference', `order ${JSON.stringify(input.MerchantOrderReference)} has ChannelReference ${JSON.stringify(order.channel_reference)}, not ${JSON.stringify(input.ChannelOrderReference)}`)
          }
          if (kind !== 'return' && !isOpenOrderStatus(order.status)) {
            throw new AppError('MARKETPLACE_ORDER_NOT_OPEN', `Order ${orderName} is ${order.status}: a ${kind} is only possible while the order is NEW, IN_PROGRESS, IN_BACKORDER or IN_COMBI.`)
          }
          const moves = matchLines(kind, order, input)
          const fulfilmentId = await fulfilments.insert(trx, {
            customer_id: principal.customerId,
            channel_id: order.channel_id,
            order_id: order.id,
            kind,
            merchant_reference: merchantReference,
            channel_reference: channelReference,
            data: JSON.stringify(kindData(kind, input)),
            created_at: at
          }, moves.map((m) => ({ order_line_id: m.line.id, quantity: m.quantity, data: JSON.stringify(m.data) })))
          for (const move of moves) {
            if (move.quantity === 0) continue
            if (!(await fulfilments.applyLine(trx, kind, move.line.id, move.quantity))) {
              throw new AppError('MARKETPLACE_QUANTITY_EXCEEDED', `Lines[${move.index}].Quantity: cannot ${VERB[kind]} ${move.quantity} of line ${lineName(move.line)}: it changed concurrently and no longer has that much available.`)
            }
          }
          await fulfilments.refreshStatuses(trx, order.id, order.acknowledged_at !== null, at)
          return fulfilmentId
        })
      } catch (error) {
        if (isUniqueViolation(error)) {
          const which = merchantReference !== null ? `${REFERENCE_FIELD[kind]} ${JSON.stringify(merchantReference)}` : `ChannelReturnReference ${JSON.stringify(channelReference)}`
          throw new AppError('MARKETPLACE_DUPLICATE_MERCHANT_REFERENCE', `A ${kind} with ${which} already exists.`)
        }
        throw error
      }
      return (await fulfilments.findById(id)) as FulfilmentWithLines
    },

    async get(kind: FulfilmentKind, principal: Principal, reference: string): Promise<FulfilmentWithLines> {
      const found = await fulfilments.findOne(scopeOf(principal), kind, reference, kind === 'return')
      if (!found) throw new AppError(NOT_FOUND[kind], `No ${kind} has the reference ${JSON.stringify(reference)}.`)
      return found
    },

    list(kind: FulfilmentKind, principal: Principal, since: string, page: number, pageSize: number) {
      return fulfilments.listSince(scopeOf(principal), kind, since, (page - 1) * pageSize, pageSize)
    }
  }
}
export type FulfilmentsService = ReturnType<typeof createFulfilmentsService>

const lineName = (line: OrderLineRow) => JSON.stringify(line.merchant_reference ?? line.channel_reference)

/** Maps each request line to an order line and checks its quantity against what is available. */
function matchLines(kind: FulfilmentKind, order: OrderWithLines, input: AnyInput) {
  const byMerchant = new Map(order.lines.flatMap((l) => (l.merchant_reference ? [[l.merchant_reference, l] as const] : [])))
  const byChannel = new Map(order.lines.map((l) => [l.channel_reference, l] as const))
  const canShipPartial = (JSON.parse(order.data) as { CanShipPartialOrderLines?: boolean }).CanShipPartialOrderLines !== false
  const used = new Set<number>()
  return input.Lines.map((requested, index) => {
    const field = requested.MerchantOrderLineReference !== undefined ? 'MerchantOrderLineReference' : 'ChannelOrderLineReference'
    const reference = requested.MerchantOrderLineReference ?? requested.ChannelOrderLineReference
    if (reference === undefined) throw invalid(`Lines[${index}].MerchantOrderLineReference`, 'give MerchantOrderLineReference (or ChannelOrderLineReference)')
    const line = field === 'MerchantOrderLineReference' ? byMerchant.get(reference) : byChannel.get(reference)
    if (!line) {
      throw new AppError('MARKETPLACE_ORDER_LINE_NOT_FOUND', `Lines[${index}].${field}: order ${JSON.stringify(order.merchant_reference ?? order.channel_reference)} has no line ${JSON.stringify(reference)}.`, { details: [{ pointer: `/Lines/${index}/${field}`, message: `no line ${JSON.stringify(reference)} on this order` }] })
    }
    if (used.has(line.id)) throw invalid(`Lines[${index}]`, `line ${JSON.stringify(reference)} is named twice; give its total quantity once`)
    used.add(line.id)
    const { max, why } = available(kind, line)
    if (requested.Quantity > max) {
      throw new AppError('MARKETPLACE_QUANTITY_EXCEEDED', `Lines[${index}].Quantity: cannot ${VERB[kind]} ${requested.Quantity} of line ${JSON.stringify(reference)}: ${why}.`, { details: [{ pointer: `/Lines/${index}/Quantity`, message: `cannot ${VERB[kind]} ${requested.Quantity}: ${why}` }] })
    }
    if (kind === 'shipment' && !canShipPartial && requested.Quantity > 0 && requested.Quantity !== openQuantity(line)) {
      throw invalid(`Lines[${index}].Quantity`, `this order does not allow partial line shipments (CanShipPartialOrderLines is false): ship all ${openQuantity(line)} open units of line ${JSON.stringify(reference)}`)
    }
    return { index, line, quantity: requested.Quantity, data: lineData(kind, requested, index) }
  })
}
