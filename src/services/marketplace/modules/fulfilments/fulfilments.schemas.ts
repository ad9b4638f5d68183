import { Type, type TSchema } from 'typebox'
import { DateTime, Enum, Money, Nullable, Quantity, Ref, Text } from '../../http/fields.js'

const RETURN_REASONS = [
  'PRODUCT_DEFECT',
  'PRODUCT_UNSATISFACTORY',
  'REFUSED',
  'REFUSED_DAMAGED',
  'WRONG_ADDRESS',
  'NOT_COLLECTED',
  'OTHER'
] as const
const RETURN_STATUSES = ['DECLARED', 'RECEIVED', 'CLOSED'] as const

const Page = Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page' }))
export const ListQuery = Type.Object({ createdSince: DateTime('inclusive lower bound of the creation time'), page: Page })
/** GET /v2/returns/merchant and /v2/returns/channel: a list with createdSince, else the return whose reference is that word. */
export const ReturnsOfQuery = Type.Object({
  createdSince: Type.Optional(
    DateTime('inclusive lower bound of the creation time; without it the path reads the return with that reference')
  ),
  page: Page
})

const OrderRefFields = {
  MerchantOrderReference: Type.Optional(Ref("the order's merchant reference (required for merchant keys)", 50)),
  ChannelOrderReference: Type.Optional(Ref("the order's channel reference (channel keys may use it instead)", 60))
}
const LineRefFields = {
  MerchantOrderLineReference: Type.Optional(Ref('the merchant reference of the order line', 100)),
  ChannelOrderLineReference: Type.Optional(Ref('the channel reference of the order line (instead of MerchantOrderLineReference)', 100)),
  MerchantProductReference: Type.Optional(Ref("the line's product (2016 clients; the order must have one line of it)")),
  ChannelProductReference: Type.Optional(Ref("the line's product by the channel's reference (2016 channel clients)"))
}
const LineView = {
  MerchantOrderLineReference: Nullable(Type.String()),
  ChannelOrderLineReference: Type.String(),
  MerchantProductReference: Type.String(),
  ChannelProductReference: Nullable(Type.String({ description: "the product's reference at the order's channel" })),
  Quantity: Type.Integer()
}
const LinesOf = <T extends TSchema>(line: T) => Type.Array(line, { minItems: 1, maxItems: 500 })

export const BackorderBody = Type.Object({
  MerchantBackorderReference: Ref('unique reference of this backorder'),
  ...OrderRefFields,
  Lines: LinesOf(Type.Object({ ...LineRefFields, Quantity, ExpectedDate: Type.Optional(DateTime('when stock is expected')) }))
})
export const BackorderView = Type.Object({
  MerchantBackorderReference: Type.String(),
  MerchantOrderReference: Nullable(Type.String()),
  ChannelOrderReference: Type.String(),
  CreatedAt: Type.String(),
  Lines: Type.Array(Type.Object({ ...LineView, ExpectedDate: Nullable(Type.String()) }))
})

export const CancellationBody = Type.Object({
  MerchantReference: Ref('unique reference of this cancellation'),
  ...OrderRefFields,
  Reason: Type.Optional(Nullable(Text(500))),
  Lines: LinesOf(Type.Object({ ...LineRefFields, Quantity }))
})
export const CancellationView = Type.Object({
  MerchantReference: Type.String(),
  MerchantOrderReference: Nullable(Type.String()),
  ChannelOrderReference: Type.String(),
  Reason: Nullable(Type.String()),
  CreatedAt: Type.String(),
  Lines: Type.Array(Type.Object(LineView))
})

const ShipmentMethod = Type.Object({
  Name: Type.Optional(Text(100)),
  TrackTraceLink: Type.Optional(Text(250)),
  ExpectedShippingTime: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  Id: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }))
})
export const ShipmentBody = Type.Object({
  MerchantShipmentReference: Ref('unique reference of this shipment (or send MerchantReference)'),
  MerchantReference: Type.Optional(Ref("the 2016 clients' name for MerchantShipmentReference")),
  ...OrderRefFields,
  TrackTraceNo: Type.Optional(Nullable(Text(50))),
  TrackTraceUrl: Type.Optional(Nullable(Text(250))),
  Method: Type.Optional(Nullable(Text(50, 'carrier name'))),
  ShipmentMethod: Type.Optional(ShipmentMethod),
  ShipmentMethodId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  Lines: LinesOf(Type.Object({ ...LineRefFields, Quantity }))
})
export const ShipmentView = Type.Object({
  MerchantShipmentReference: Type.String(),
  MerchantOrderReference: Nullable(Type.String()),
  ChannelOrderReference: Type.String(),
  TrackTraceNo: Nullable(Type.String()),
  TrackTraceUrl: Nullable(Type.String()),
  Method: Nullable(Type.String()),
  ShipmentMethod: Nullable(ShipmentMethod),
  ShipmentMethodId: Nullable(Type.Integer()),
  CreatedAt: Type.String(),
  Lines: Type.Array(Type.Object(LineView))
})

const ReturnLineAmounts = {
  AcceptedQuantity: Type.Optional(Quantity),
  RejectedQuantity: Type.Optional(Quantity),
  RefundInclVat: Type.Optional(Money('refund including VAT')),
  RefundExclVat: Type.Optional(Money('refund excluding VAT')),
  ManualRefundInclVat: Type.Optional(Money('manual refund including VAT')),
  ManualRefundExclVat: Type.Optional(Money('manual refund excluding VAT'))
}
export const ReturnBody = Type.Object({
  MerchantReturnReference: Type.Optional(Ref('unique reference of this return (merchant keys: required)')),
  MerchantReference: Type.Optional(Ref("the 2016 clients' name for MerchantReturnReference")),
  ChannelReturnReference: Type.Optional(Ref("the channel's reference of this return (channel keys: this or MerchantReturnReference)")),
  ChannelReference: Type.Optional(Ref("the 2016 clients' name for ChannelReturnReference")),
  ...OrderRefFields,
  Status: Type.Optional(Enum(RETURN_STATUSES, 'default DECLARED')),
  Reason: Type.Optional(Enum(RETURN_REASONS, 'default OTHER')),
  CustomerComment: Type.Optional(Nullable(Text(2000))),
  MerchantComment: Type.Optional(Nullable(Text(2000))),
  RefundInclVat: Type.Optional(Money('refund including VAT')),
  RefundExclVat: Type.Optional(Money('refund excluding VAT')),
  Lines: LinesOf(Type.Object({ ...LineRefFields, Quantity, ...ReturnLineAmounts }))
})
export const ReturnView = Type.Object({
  MerchantReturnReference: Nullable(Type.String()),
  ChannelReturnReference: Nullable(Type.String()),
  ChannelReference: Type.String({
    description: "the 2016 clients' ChannelReference: ChannelReturnReference, or MerchantReturnReference when the channel gave none"
  }),
  MerchantOrderReference: Nullable(Type.String()),
  ChannelOrderReference: Type.String(),
  Status: Type.String(),
  Reason: Type.String(),
  CustomerComment: Nullable(Type.String()),
  MerchantComment: Nullable(Type.String()),
  RefundInclVat: Nullable(Type.Number()),
  RefundExclVat: Nullable(Type.Number()),
  CreatedAt: Type.String(),
  Lines: Type.Array(
    Type.Object({
      ...LineView,
      AcceptedQuantity: Nullable(Type.Integer()),
      RejectedQuantity: Nullable(Type.Integer()),
      RefundInclVat: Nullable(Type.Number()),
      RefundExclVat: Nullable(Type.Number()),
      ManualRefundInclVat: Nullable(Type.Number()),
      ManualRefundExclVat: Nullable(Type.Number())
    })
  )
})
