import type { OrderLineRow } from '../../db.js'
import { money } from '../../money.js'
import { parseStored, stringOrNull } from '../../stored-json.js'
import type { OrderWithLines } from './orders.repository.js'
import { openQuantity } from './orders.service.js'

/** The order as OrderViewModel (PascalCase; money as numbers with 2 decimals; base = original currency). */
export function renderOrder(order: OrderWithLines) {
  const data = parseStored(order.data)
  const str = (key: string) => stringOrNull(data[key])
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

function renderOrderLine(line: OrderLineRow) {
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
