import type { FulfilmentKind } from '../../db.js'
import { fromCents } from '../../money.js'
import { numberOrNull, parseStored, stringOrNull, type StoredJson } from '../../stored-json.js'
import type { FulfilmentWithLines } from './fulfilments.repository.js'

/** A backorder, cancellation, shipment or return in its G1 view model. */
export function renderFulfilment(kind: FulfilmentKind, f: FulfilmentWithLines): Record<string, unknown> {
  const data = parseStored(f.data)
  const common = {
    MerchantOrderReference: f.order_merchant_reference,
    ChannelOrderReference: f.order_channel_reference,
    CreatedAt: f.created_at
  }
  const lines = f.lines.map((l) => {
    const data = parseStored(l.data)
    // A line named by its product in MerchantOrderLineReference (2016 clients) answers with the reference it was named by.
    const merchantLineReference = stringOrNull(data.MerchantOrderLineReference) ?? l.line_merchant_reference
    return {
      line: l,
      data,
      base: {
        MerchantOrderLineReference: merchantLineReference,
        ChannelOrderLineReference: l.line_channel_reference,
        MerchantProductReference: l.merchant_product_reference,
        ChannelProductReference: l.channel_product_reference,
        Quantity: l.quantity
      }
    }
  })
  switch (kind) {
    case 'backorder':
      return {
        MerchantBackorderReference: f.merchant_reference,
        ...common,
        Lines: lines.map((l) => ({ ...l.base, ExpectedDate: stringOrNull(l.data.ExpectedDate) }))
      }
    case 'cancellation':
      return { MerchantReference: f.merchant_reference, ...common, Reason: stringOrNull(data.Reason), Lines: lines.map((l) => l.base) }
    case 'shipment':
      return {
        MerchantShipmentReference: f.merchant_reference,
        ...common,
        TrackTraceNo: stringOrNull(data.TrackTraceNo),
        TrackTraceUrl: stringOrNull(data.TrackTraceUrl),
        Method: stringOrNull(data.Method),
        ShipmentMethod: (data.ShipmentMethod as StoredJson | undefined) ?? null,
        ShipmentMethodId: numberOrNull(data.ShipmentMethodId),
        Lines: lines.map((l) => l.base)
      }
    case 'return':
      return {
        MerchantReturnReference: f.merchant_reference,
        ChannelReturnReference: f.channel_reference,
        // The official 2016 client requires it (ChannelReturnResponse): a return the merchant declared
        // has no channel reference, and its merchant reference is the one that identifies it.
        ChannelReference: (f.channel_reference ?? f.merchant_reference) as string,
        ...common,
        Status: stringOrNull(data.Status) ?? 'DECLARED',
        Reason: stringOrNull(data.Reason) ?? 'OTHER',
        CustomerComment: stringOrNull(data.CustomerComment),
        MerchantComment: stringOrNull(data.MerchantComment),
        RefundInclVat: fromCents(numberOrNull(data.RefundInclVatCents)),
        RefundExclVat: fromCents(numberOrNull(data.RefundExclVatCents)),
        Lines: lines.map((l) => ({
          ...l.base,
          AcceptedQuantity: numberOrNull(l.data.AcceptedQuantity),
          RejectedQuantity: numberOrNull(l.data.RejectedQuantity),
          RefundInclVat: fromCents(numberOrNull(l.data.RefundInclVatCents)),
          RefundExclVat: fromCents(numberOrNull(l.data.RefundExclVatCents)),
          ManualRefundInclVat: fromCents(numberOrNull(l.data.ManualRefundInclVatCents)),
          ManualRefundExclVat: fromCents(numberOrNull(l.data.ManualRefundExclVatCents))
        }))
      }
  }
}
