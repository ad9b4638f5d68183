import type { FulfilmentKind, FulfilmentLineRow, FulfilmentRow, OrderLineRow, ProductRow } from './db.js'
import type { OrderWithLines } from './modules/orders/orders.repository.js'
import { fromCents, money, parseJson } from './values.js'
import { openQuantity } from './status.js'

type Json = Record<string, unknown>

/** The order as OrderViewModel (PascalCase; money as numbers with 2 decimals; base = original currency). */
export function renderOrder(order: OrderWithLines) {
  const data = parseJson<Json>(order.data)
  const str = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
  const total = money(order.total_incl_vat_cents)
  const vat = money(order.total_vat_cents)
  const shipping = money(order.shipping_costs_cents)
  const shippingVat = money(order.shipping_vat_cents)
  return {
    Id: order.id,
    MerchantReference: order.merchant_reference,
    ChannelReference: order.channel_reference,
    ChannelName: order.channel_name,
    Status: order.status,
    Phone: str('Phone'),
    Email: order.email,
    CompanyRegistrationNo: str('CompanyRegistrationNo'),
    VatNo: str('VatNo'),
    PaymentMethod: str('PaymentMethod'),
    ShippingCostsInclVat: shipping,
    ShippingCostsVat: shippingVat,
    TotalInclVat: total,
    TotalVat: vat,
    OriginalShippingCostsInclVat: shipping,
    OriginalShippingCostsVat: shippingVat,
    OriginalTotalInclVat: total,
    OriginalTotalVat: vat,
    CurrencyCode: order.currency_code,
    OrderDate: order.order_date,
    AcknowledgedDate: order.acknowledged_at,
    CreatedAt: order.created_at,
    CanShipPartialOrderLines: data.CanShipPartialOrderLines !== false,
    ChannelCustomerReference: str('ChannelCustomerReference'),
    MaxVatRate: Number(order.max_vat_rate),
    BillingAddress: (data.BillingAddress as Record<string, string> | undefined) ?? null,
    ShippingAddress: (data.ShippingAddress as Record<string, string> | undefined) ?? {},
    ExtraData: (data.ExtraData as Record<string, string> | undefined) ?? {},
    Lines: order.lines.map(renderOrderLine)
  }
}

export function renderOrderLine(line: OrderLineRow) {
  const unitPrice = money(line.unit_price_cents)
  const unitVat = money(line.unit_vat_cents)
  return {
    Id: line.id,
    MerchantReference: line.merchant_reference,
    ChannelReference: line.channel_reference,
    MerchantProductReference: line.merchant_product_reference,
    Status: line.status,
    Quantity: line.quantity,
    ShippedQuantity: line.shipped_quantity,
    CancelledQuantity: line.cancelled_quantity,
    BackorderQuantity: line.backorder_quantity,
    ReturnedQuantity: line.returned_quantity,
    OpenQuantity: openQuantity(line),
    VatRate: Number(line.vat_rate),
    UnitPriceInclVat: unitPrice,
    UnitVat: unitVat,
    OriginalUnitPriceInclVat: unitPrice,
    OriginalUnitVat: unitVat,
    FeeFixed: money(line.fee_fixed_cents),
    FeeRate: Number(line.fee_rate),
    DeliveryTimeIndication: line.delivery_time_indication
  }
}

export interface FulfilmentWithLines extends FulfilmentRow {
  order_merchant_reference: string | null
  order_channel_reference: string
  lines: (FulfilmentLineRow & { line_merchant_reference: string | null; line_channel_reference: string })[]
}

const nullableString = (value: unknown) => (typeof value === 'string' ? value : null)
const nullableNumber = (value: unknown) => (typeof value === 'number' ? value : null)

/** A backorder, cancellation, shipment or return in its G1 view model. */
export function renderFulfilment(kind: FulfilmentKind, f: FulfilmentWithLines): Json {
  const data = parseJson<Json>(f.data)
  const common = { MerchantOrderReference: f.order_merchant_reference, ChannelOrderReference: f.order_channel_reference, CreatedAt: f.created_at }
  const lines = f.lines.map((l) => ({ line: l, data: parseJson<Json>(l.data), base: { MerchantOrderLineReference: l.line_merchant_reference, ChannelOrderLineReference: l.line_channel_reference, Quantity: l.quantity } }))
  switch (kind) {
    case 'backorder':
      return { MerchantBackorderReference: f.merchant_reference, ...common, Lines: lines.map((l) => ({ ...l.base, ExpectedDate: nullableString(l.data.ExpectedDate) })) }
    case 'cancellation':
      return { MerchantReference: f.merchant_reference, ...common, Reason: nullableString(data.Reason), Lines: lines.map((l) => l.base) }
    case 'shipment':
      return {
        MerchantShipmentReference: f.merchant_reference, ...common,
        TrackTraceNo: nullableString(data.TrackTraceNo), TrackTraceUrl: nullableString(data.TrackTraceUrl), Method: nullableString(data.Method),
        ShipmentMethod: (data.ShipmentMethod as Json | undefined) ?? null, ShipmentMethodId: nullableNumber(data.ShipmentMethodId),
        Lines: lines.map((l) => l.base)
      }
    case 'return':
      return {
        MerchantReturnReference: f.merchant_reference, ChannelReturnReference: f.channel_reference, ...common,
        Status: nullableString(data.Status) ?? 'DECLARED', Reason: nullableString(data.Reason) ?? 'OTHER',
        CustomerComment: nullableString(data.CustomerComment), MerchantComment: nullableString(data.MerchantComment),
        RefundInclVat: fromCents(nullableNumber(data.RefundInclVatCents)), RefundExclVat: fromCents(nullableNumber(data.RefundExclVatCents)),
        Lines: lines.map((l) => ({
          ...l.base,
          AcceptedQuantity: nullableNumber(l.data.AcceptedQuantity), RejectedQuantity: nullableNumber(l.data.RejectedQuantity),
          RefundInclVat: fromCents(nullableNumber(l.data.RefundInclVatCents)), RefundExclVat: fromCents(nullableNumber(l.data.RefundExclVatCents))
        }))
      }
  }
}

/** Stored product data (money in cents) → the ProductViewModel fields. */
export function renderProductFields(product: Pick<ProductRow, 'merchant_reference' | 'data' | 'stock' | 'price_cents'>, parentReference: string | null) {
  const d = parseJson<Json>(product.data)
  const s = (key: string) => nullableString(d[key])
  const n = (key: string) => nullableNumber(d[key])
  return {
    MerchantProductReference: product.merchant_reference,
    ParentMerchantReference: parentReference,
    Name: s('Name') ?? '',
    Description: s('Description'),
    Details: s('Details'),
    Brand: s('Brand'),
    Size: s('Size'),
    Color: s('Color'),
    Ean: s('Ean'),
    ManufacturerProductNumber: s('ManufacturerProductNumber'),
    Stock: product.stock,
    Price: fromCents(product.price_cents === null ? null : Number(product.price_cents)),
    MSRP: fromCents(n('MSRP')),
    PurchasePrice: fromCents(n('PurchasePrice')),
    DiscountRate: n('DiscountRate'),
    VatRate: n('VatRate'),
    ShippingCost: fromCents(n('ShippingCost')),
    ShippingTime: s('ShippingTime'),
    Url: s('Url'),
    ImageUrl: s('ImageUrl'),
    CategoryTrail: s('CategoryTrail'),
    ExtraData: (d.ExtraData as Record<string, string> | null | undefined) ?? {}
  }
}
