import type { Static } from 'typebox'
import type { MarketplaceTrx, ProductRow } from '../../db.js'
import { invalid, marketplaceError, uniqueViolationAs } from '../../errors.js'
import { normaliseDateTime } from '../../http/fields.js'
import { rateText, toCents } from '../../money.js'
import { requireChannel, requireMerchant, type Principal } from '../keys/keys.service.js'
import type { AcknowledgeBody, CreateOrderBody } from './orders.schemas.js'
import type { OrdersRepository, OrderScope, OrderWithLines } from './orders.repository.js'

/** What order creation needs to know about products. */
export interface ProductLookup {
  byMerchantReferences(customerId: number, references: string[]): Promise<ProductRow[]>
  byChannelReferences(channelId: number, references: string[]): Promise<(ProductRow & { channel_reference: string })[]>
  hasChildren(productIds: number[]): Promise<Set<number>>
}

export interface OrdersServiceDeps {
  orders: OrdersRepository
  products: ProductLookup
  now: () => string
}

/** Quantities of one order line, as stored. */
interface LineQuantities {
  quantity: number
  shipped_quantity: number
  cancelled_quantity: number
  backorder_quantity: number
  returned_quantity: number
}

export const openQuantity = (l: LineQuantities): number => l.quantity - l.shipped_quantity - l.cancelled_quantity

/**
 * A line's status from its quantities: open units make it NEW (not yet acknowledged),
 * IN_PROGRESS, or IN_BACKORDER (some open units backordered); with nothing open it is CANCELED
 * (nothing shipped), RETURNED (everything shipped came back) or SHIPPED.
 */
function lineStatus(line: LineQuantities, acknowledged: boolean): string {
  if (openQuantity(line) > 0) return line.backorder_quantity > 0 ? 'IN_BACKORDER' : acknowledged ? 'IN_PROGRESS' : 'NEW'
  if (line.shipped_quantity === 0) return 'CANCELED'
  return line.returned_quantity >= line.shipped_quantity ? 'RETURNED' : 'SHIPPED'
}

const OPEN = new Set(['NEW', 'IN_PROGRESS', 'IN_BACKORDER'])

/**
 * The order's status from its lines: one shared status is the order's; with nothing open, mixed
 * closed lines make it CLOSED. With open lines: all open lines backordered → IN_BACKORDER; any
 * line already (partly) shipped or cancelled, or open lines in different states → IN_COMBI.
 */
function orderStatus(lines: (LineQuantities & { status: string })[]): string {
  const statuses = new Set(lines.map((l) => l.status))
  const open = lines.filter((l) => OPEN.has(l.status))
  if (open.length === 0) return statuses.size === 1 ? (lines[0]?.status ?? 'CLOSED') : 'CLOSED'
  const openStatuses = new Set(open.map((l) => l.status))
  if (openStatuses.size === 1 && openStatuses.has('IN_BACKORDER')) return 'IN_BACKORDER'
  const moved = lines.some((l) => l.shipped_quantity > 0 || l.cancelled_quantity > 0)
  if (moved || openStatuses.size > 1) return 'IN_COMBI'
  return open[0]?.status ?? 'IN_PROGRESS'
}

/** Orders that still take shipments, cancellations and backorders. */
export const isOpenOrderStatus = (status: string): boolean => OPEN.has(status) || status === 'IN_COMBI'

/** VAT contained in a VAT-inclusive amount at `rate` percent, in cents. */
const vatOf = (grossCents: number, rate: number) => Math.round((grossCents * rate) / (100 + rate))

export function createOrdersService({ orders, products, now }: OrdersServiceDeps) {
  async function resolveProducts(
    principal: Principal,
    channelId: number,
    lines: Static<typeof CreateOrderBody>['Lines']
  ): Promise<ProductRow[]> {
    const byMerchant = [...new Set(lines.flatMap((l) => (l.MerchantProductReference ? [l.MerchantProductReference] : [])))]
    const byChannel = [
      ...new Set(lines.flatMap((l) => (!l.MerchantProductReference && l.ChannelProductReference ? [l.ChannelProductReference] : [])))
    ]
    const merchantMap = new Map(
      (await products.byMerchantReferences(principal.customerId, byMerchant)).map((p) => [p.merchant_reference, p])
    )
    const channelMap = new Map((await products.byChannelReferences(channelId, byChannel)).map((p) => [p.channel_reference, p]))
    const parents = await products.hasChildren([...merchantMap.values(), ...channelMap.values()].map((p) => p.id))
    return lines.map((line, i) => {
      let product: ProductRow | undefined
      if (line.MerchantProductReference) {
        product = merchantMap.get(line.MerchantProductReference)
        if (!product)
          throw marketplaceError(
            'MARKETPLACE_PRODUCT_NOT_FOUND',
            `Lines[${i}].MerchantProductReference: no product ${JSON.stringify(line.MerchantProductReference)} exists for this customer.`,
            {
              details: [
                { pointer: `/Lines/${i}/MerchantProductReference`, message: `no product ${JSON.stringify(line.MerchantProductReference)}` }
              ]
            }
          )
      } else if (line.ChannelProductReference) {
        product = channelMap.get(line.ChannelProductReference)
        if (!product)
          throw marketplaceError(
            'MARKETPLACE_PRODUCT_NOT_FOUND',
            `Lines[${i}].ChannelProductReference: this channel acknowledged no product as ${JSON.stringify(line.ChannelProductReference)}.`,
            {
              details: [
                {
                  pointer: `/Lines/${i}/ChannelProductReference`,
                  message: `no product acknowledged as ${JSON.stringify(line.ChannelProductReference)}`
                }
              ]
            }
          )
      } else {
        throw invalid(`Lines[${i}].MerchantProductReference`, 'give MerchantProductReference or ChannelProductReference')
      }
      if (product.is_active !== 1)
        throw invalid(`Lines[${i}]`, `product ${JSON.stringify(product.merchant_reference)} is deactivated and cannot be ordered`)
      if (parents.has(product.id))
        throw invalid(
          `Lines[${i}]`,
          `product ${JSON.stringify(product.merchant_reference)} is a parent (a blueprint with children): order one of its children`
        )
      return product
    })
  }

  return {
    /** Channel: creates a NEW order with its lines (201); a repeated ChannelReference → 409. */
    async create(principal: Principal, input: Static<typeof CreateOrderBody>): Promise<OrderWithLines> {
      const channelId = requireChannel(principal, 'Creating an order')
      // A line without its own ChannelReference (2016 clients) is named by its product reference.
      const lineReferences = input.Lines.map(
        (line) => line.ChannelReference ?? line.ChannelProductReference ?? line.MerchantProductReference
      )
      const seen = new Set<string>()
      lineReferences.forEach((reference, i) => {
        if (reference === undefined) return
        if (seen.has(reference))
          throw invalid(
            `Lines[${i}].ChannelReference`,
            `${JSON.stringify(reference)} is used by two lines of this order` +
              (input.Lines[i]?.ChannelReference === undefined ? ' (a line without ChannelReference is named by its product reference)' : '')
          )
        seen.add(reference)
      })
      const lineProducts = await resolveProducts(principal, channelId, input.Lines)
      const at = now()
      let maxRate = 0
      let totalCents = 0
      let totalVatCents = 0
      const lines = input.Lines.map((line, i) => {
        const product = lineProducts[i] as ProductRow
        const productRate = (JSON.parse(product.data) as { VatRate?: number | null }).VatRate
        const rate = line.VatRate ?? (typeof productRate === 'number' ? productRate : 0)
        maxRate = Math.max(maxRate, rate)
        const unitPrice = toCents(line.UnitPriceInclVat, `Lines[${i}].UnitPriceInclVat`)
        const unitVat = vatOf(unitPrice, rate)
        totalCents += unitPrice * line.Quantity
        totalVatCents += unitVat * line.Quantity
        return {
          customer_id: principal.customerId,
          line_no: i + 1,
          channel_reference: lineReferences[i] as string,
          merchant_reference: null,
          merchant_product_reference: product.merchant_reference,
          status: 'NEW',
          quantity: line.Quantity,
          shipped_quantity: 0,
          cancelled_quantity: 0,
          backorder_quantity: 0,
          returned_quantity: 0,
          unit_price_cents: unitPrice,
          unit_vat_cents: unitVat,
          vat_rate: rateText(rate),
          fee_fixed_cents: line.FeeFixed === undefined ? 0 : toCents(line.FeeFixed, `Lines[${i}].FeeFixed`),
          fee_rate: rateText(line.FeeRate),
          delivery_time_indication: line.DeliveryTimeIndication ?? null
        }
      })
      const shipping = input.ShippingCostsInclVat === undefined ? 0 : toCents(input.ShippingCostsInclVat, 'ShippingCostsInclVat')
      const shippingVat = vatOf(shipping, maxRate)
      const data = {
        Phone: input.Phone,
        CompanyRegistrationNo: input.CompanyRegistrationNo,
        VatNo: input.VatNo,
        PaymentMethod: input.PaymentMethod,
        ChannelCustomerReference: input.ChannelCustomerReference,
        CanShipPartialOrderLines: input.CanShipPartialOrderLines ?? true,
        BillingAddress: input.BillingAddress,
        ShippingAddress: input.ShippingAddress,
        ExtraData: input.ExtraData ?? {}
      }
      const id = await uniqueViolationAs(
        () =>
          orders.insertOrder(
            {
              customer_id: principal.customerId,
              channel_id: channelId,
              channel_reference: input.ChannelReference,
              merchant_reference: null,
              status: 'NEW',
              email: input.Email,
              currency_code: input.CurrencyCode.toUpperCase(),
              order_date: input.OrderDate === undefined ? null : normaliseDateTime(input.OrderDate, 'OrderDate'),
              acknowledged_at: null,
              shipping_costs_cents: shipping,
              shipping_vat_cents: shippingVat,
              total_incl_vat_cents: totalCents + shipping,
              total_vat_cents: totalVatCents + shippingVat,
              max_vat_rate: rateText(maxRate),
              data: JSON.stringify(data),
              created_at: at,
              updated_at: at
            },
            lines
          ),
        () =>
          marketplaceError(
            'MARKETPLACE_DUPLICATE_CHANNEL_ORDER',
            `Channel ${principal.channelName ?? ''} ` +
              `already created an order with ChannelReference ${JSON.stringify(input.ChannelReference)}.`
          )
      )
      return (await orders.findById({ customerId: principal.customerId }, id)) as OrderWithLines
    },

    /**
     * Merchant: the customer's orders version, read before the list: a rendering of the NEW
     * orders read after it may be cached under it (every order write bumps it).
     */
    async listNewVersion(principal: Principal): Promise<number> {
      requireMerchant(principal, 'Listing new orders')
      return principal.counters?.ordersVersion ?? orders.ordersVersion(principal.customerId)
    },

    /** Merchant: NEW orders, oldest first, `pageSize` per page. */
    async listNew(principal: Principal, page: number, pageSize: number) {
      requireMerchant(principal, 'Listing new orders')
      return orders.listNew(principal.customerId, (page - 1) * pageSize, pageSize)
    },

    /** Merchant: one order by the reference given at acknowledgement. */
    async get(principal: Principal, merchantReference: string): Promise<OrderWithLines> {
      requireMerchant(principal, 'Reading an order')
      const order = await orders.findByMerchantReference({ customerId: principal.customerId }, merchantReference)
      if (!order)
        throw marketplaceError('MARKETPLACE_ORDER_NOT_FOUND', `No order has the merchant reference ${JSON.stringify(merchantReference)}.`)
      return order
    },

    /**
     * Merchant: confirms the import of a NEW order, naming it and each of its lines (or, 2016
     * clients, only the order: its lines are then named `<order>-<n>`); the order and lines become
     * IN_PROGRESS. Exactly one of several concurrent acknowledges wins; the others,
     * and any later one, get 409.
     */
    async acknowledge(principal: Principal, input: Static<typeof AcknowledgeBody>): Promise<OrderWithLines> {
      requireMerchant(principal, 'Acknowledging an order')
      // GET /v2/orders/new is the list of new orders, so an order called "new" could never be read.
      if (input.MerchantOrderReference === 'new')
        throw invalid(
          'MerchantOrderReference',
          '"new" is reserved: GET /v2/orders/new lists new orders, so this order could not be read by its reference'
        )
      const scope = { customerId: principal.customerId }
      await uniqueViolationAs(
        () =>
          orders.withLockedOrder(scope, { id: input.OrderId }, async (trx, order) => {
            if (!order) throw marketplaceError('MARKETPLACE_ORDER_NOT_FOUND', `No order has Id ${input.OrderId}.`)
            if (order.status !== 'NEW' || order.merchant_reference !== null) {
              throw marketplaceError(
                'MARKETPLACE_ALREADY_ACKNOWLEDGED',
                `Order ${input.OrderId} was already acknowledged` +
                  `${order.merchant_reference ? ` as ${JSON.stringify(order.merchant_reference)}` : ''} (status ${order.status}).`
              )
            }
            const lineIds = new Set(order.lines.map((l) => l.id))
            const references = new Map<number, string>()
            const usedReferences = new Set<string>()
            // Without Lines (2016 clients) the order is acknowledged as a whole (line references below).
            const lines = input.Lines ?? []
            lines.forEach((line, i) => {
              if (!lineIds.has(line.OrderLineId)) {
                throw marketplaceError(
                  'MARKETPLACE_ORDER_LINE_NOT_FOUND',
                  `Lines[${i}].OrderLineId: order ${input.OrderId} has no line ${line.OrderLineId} ` +
                    `(its lines: ${[...lineIds].join(', ')}).`,
                  { details: [{ pointer: `/Lines/${i}/OrderLineId`, message: `not a line of order ${input.OrderId}` }] }
                )
              }
              if (references.has(line.OrderLineId))
                throw invalid(`Lines[${i}].OrderLineId`, `line ${line.OrderLineId} is acknowledged twice`)
              if (usedReferences.has(line.MerchantOrderLineReference))
                throw invalid(
                  `Lines[${i}].MerchantOrderLineReference`,
                  `${JSON.stringify(line.MerchantOrderLineReference)} is given to two lines`
                )
              references.set(line.OrderLineId, line.MerchantOrderLineReference)
              usedReferences.add(line.MerchantOrderLineReference)
            })
            const missing = [...lineIds].filter((id) => !references.has(id))
            if (input.Lines !== undefined && missing.length > 0)
              throw invalid(
                'Lines',
                `every line of the order needs a MerchantOrderLineReference; missing OrderLineId ${missing.join(', ')}`
              )
            const taken = await orders.merchantReferencesInUse(trx, principal.customerId, input.MerchantOrderReference, [...usedReferences])
            if (taken.order)
              throw marketplaceError(
                'MARKETPLACE_DUPLICATE_MERCHANT_REFERENCE',
                `MerchantOrderReference ${JSON.stringify(input.MerchantOrderReference)} is already used by order ${taken.order.id}.`
              )
            const takenLine = taken.line
            if (takenLine)
              throw marketplaceError(
                'MARKETPLACE_DUPLICATE_MERCHANT_REFERENCE',
                `MerchantOrderLineReference ${JSON.stringify(takenLine.merchant_reference)} ` +
                  `is already used by a line of order ${takenLine.order_id}.`
              )
            if (input.Lines === undefined) {
              // The 2016 acknowledgement names no lines, yet later calls name lines by the references given
              // here (seed; the 2016 BackOrderLine too): line n of the order is called `<MerchantOrderReference>-<n>`,
              // unless another order's line already has that reference (that line is then named by its product).
              const derived = new Map(order.lines.map((l) => [l.id, `${input.MerchantOrderReference}-${l.line_no}`]))
              const inUse = await orders.lineReferencesInUse(trx, principal.customerId, [...derived.values()])
              for (const [lineId, reference] of derived) if (!inUse.has(reference)) references.set(lineId, reference)
            }
            const won = await orders.acknowledge(trx, order.id, input.MerchantOrderReference, references, now())
            if (!won) throw marketplaceError('MARKETPLACE_ALREADY_ACKNOWLEDGED', `Order ${input.OrderId} was acknowledged concurrently.`)
          }),
        () =>
          marketplaceError(
            'MARKETPLACE_DUPLICATE_MERCHANT_REFERENCE',
            `MerchantOrderReference ${JSON.stringify(input.MerchantOrderReference)} or one of the line references is already in use.`
          )
      )
      return (await orders.findById(scope, input.OrderId)) as OrderWithLines
    },

    /**
     * For the fulfilments module: runs `work` with the order locked (see the repository); the
     * caller has checked the principal's role and passes its scope.
     */
    withLockedOrder: orders.withLockedOrder,

    /** For the fulfilments module: re-derives line and order statuses from the quantities now stored. */
    async refreshStatuses(trx: MarketplaceTrx, orderId: number, acknowledged: boolean, at: string): Promise<void> {
      const lines = await orders.linesOf(trx, orderId)
      const derived = lines.map((l) => ({ ...l, status: lineStatus(l, acknowledged) }))
      for (const [i, line] of derived.entries()) {
        if (lines[i]?.status !== line.status) await orders.setLineStatus(trx, line.id, line.status)
      }
      await orders.setOrderStatus(trx, orderId, orderStatus(derived), at)
    }
  }
}
export type OrdersService = ReturnType<typeof createOrdersService>
export type { OrderScope, OrderWithLines }
