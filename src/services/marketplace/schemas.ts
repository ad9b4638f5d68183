import { Type, type Static, type TSchema } from 'typebox'

// ---------------------------------------------------------------- building blocks
const Text = (maxLength = 250, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) })
const Ref = (description: string, maxLength = 250) => Type.String({ minLength: 1, maxLength, description })
/**
 * `T | null` as a JSON-schema type list rather than anyOf: the response serialiser then writes it
 * directly instead of validating each value against every branch (much faster on big lists).
 */
const Nullable = <T extends TSchema>(schema: T) => {
  const raw = schema as unknown as Record<string, unknown>
  return Type.Unsafe<Static<T> | null>({ ...raw, type: [raw.type as string, 'null'] })
}
const Money = (description: string) => Type.Number({ minimum: 0, maximum: 1_000_000_000, description: `${description} (at most 2 decimals)` })
const Rate = (description: string) => Type.Number({ minimum: 0, maximum: 100, description: `${description} (percent)` })
const Quantity = Type.Integer({ minimum: 0, maximum: 1_000_000_000 })
const ExtraData = Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), { description: 'free key/value pairs (keys kept as sent)' })

/** ISO-8601 date-time, with a zone or taken as UTC; checked again as a real date by the service. */
export const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?)?(Z|z|[+-]\\d{2}(:?\\d{2})?)?$'
const DateTime = (description: string) => Type.String({ pattern: DATE_TIME_PATTERN, maxLength: 40, description: `${description} (ISO-8601)` })

export const GENDERS = ['MALE', 'FEMALE', 'NOT_APPLICABLE'] as const
export const ORDER_STATUSES = ['NEW', 'IN_PROGRESS', 'IN_BACKORDER', 'IN_COMBI', 'SHIPPED', 'CANCELED', 'RETURNED', 'CLOSED'] as const
export const RETURN_REASONS = ['PRODUCT_DEFECT', 'PRODUCT_UNSATISFACTORY', 'REFUSED', 'REFUSED_DAMAGED', 'WRONG_ADDRESS', 'NOT_COLLECTED', 'OTHER'] as const
export const RETURN_STATUSES = ['DECLARED', 'RECEIVED', 'CLOSED'] as const
const Enum = (values: readonly string[], description?: string) => Type.Union(values.map((v) => Type.Literal(v)), description ? { description } : {})

export const Address = Type.Object({
  Gender: Type.Optional(Enum(GENDERS)),
  Salutation: Type.Optional(Text(50)),
  CompanyName: Type.Optional(Text()),
  FirstName: Type.Optional(Text()),
  LastName: Type.Optional(Text()),
  StreetName: Type.Optional(Text()),
  HouseNr: Type.Optional(Text(50)),
  HouseNrAddition: Type.Optional(Text(50)),
  ZipCode: Type.Optional(Text(50)),
  City: Type.Optional(Text()),
  Region: Type.Optional(Text()),
  CountryIso: Type.Optional(Type.String({ maxLength: 3, description: 'ISO 3166 country code' }))
})

// ---------------------------------------------------------------- envelopes
const EnvelopeFields = {
  StatusCode: Type.Integer(),
  Success: Type.Boolean(),
  Message: Nullable(Type.String()),
  ValidationErrors: Type.Record(Type.String(), Type.Array(Type.String()))
}
export const Single = <T extends TSchema>(content: T) => Type.Object({ ...EnvelopeFields, Content: content })
export const Collection = <T extends TSchema>(item: T) => Type.Object({
  ...EnvelopeFields,
  Content: Type.Array(item),
  Count: Type.Integer({ description: 'items in this response' }),
  TotalCount: Type.Integer({ description: 'items on all pages' }),
  ItemsPerPage: Type.Integer()
})
export const ErrorEnvelope = Type.Object({
  ...EnvelopeFields,
  Content: Type.Null(),
  RequestId: Type.String({ description: 'also in the x-request-id header' })
})
export const EmptyEnvelope = Single(Type.Null())

// ---------------------------------------------------------------- queries and params
export const RefParams = Type.Object({ merchantReference: Ref('merchant reference', 250) })
export const ListQuery = Type.Object({
  createdSince: DateTime('inclusive lower bound of the creation time'),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page' }))
})
export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page' }))
})
export const ChangesQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page of each list' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'items per list and page (default MARKETPLACE_PAGE_SIZE, max 1000)' }))
})

// ---------------------------------------------------------------- orders
export const CreateOrderLine = Type.Object({
  ChannelReference: Ref("the channel's unique reference of the line", 100),
  MerchantProductReference: Type.Optional(Ref("the merchant's product reference (or give ChannelProductReference)")),
  ChannelProductReference: Type.Optional(Ref('the ChannelReference this channel acknowledged for the product')),
  Quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
  UnitPriceInclVat: Money('unit price including VAT'),
  VatRate: Type.Optional(Rate("VAT rate; defaults to the product's VatRate, else 0")),
  FeeFixed: Type.Optional(Money('fixed fee')),
  FeeRate: Type.Optional(Rate('fee rate')),
  DeliveryTimeIndication: Type.Optional(Text(100))
})
export const CreateOrderBody = Type.Object({
  ChannelReference: Ref("the channel's unique order number", 60),
  ChannelId: Type.Optional(Type.Integer({ description: 'ignored: the API key determines the channel' })),
  ChannelCustomerReference: Type.Optional(Text()),
  Phone: Type.Optional(Text(50)),
  Email: Type.String({ minLength: 3, maxLength: 250, pattern: '^[^\\s@]+@[^\\s@]+$' }),
  CompanyRegistrationNo: Type.Optional(Text(50)),
  VatNo: Type.Optional(Text(50)),
  PaymentMethod: Type.Optional(Text(100)),
  ShippingCostsInclVat: Type.Optional(Money('shipping costs including VAT')),
  CurrencyCode: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217' }),
  OrderDate: Type.Optional(DateTime('when the customer ordered')),
  CanShipPartialOrderLines: Type.Optional(Type.Boolean({ default: true })),
  BillingAddress: Type.Optional(Address),
  ShippingAddress: Address,
  Lines: Type.Array(CreateOrderLine, { minItems: 1, maxItems: 500 }),
  ExtraData: Type.Optional(ExtraData)
})

export const OrderLineView = Type.Object({
  Id: Type.Integer({ description: 'use as OrderLineId when acknowledging' }),
  MerchantReference: Nullable(Type.String()),
  ChannelReference: Type.String(),
  MerchantProductReference: Type.String(),
  Status: Type.String(),
  Quantity: Type.Integer(),
  ShippedQuantity: Type.Integer(),
  CancelledQuantity: Type.Integer(),
  BackorderQuantity: Type.Integer(),
  ReturnedQuantity: Type.Integer(),
  OpenQuantity: Type.Integer({ description: 'Quantity − ShippedQuantity − CancelledQuantity' }),
  VatRate: Type.Number(),
  UnitPriceInclVat: Type.Number(),
  UnitVat: Type.Number(),
  OriginalUnitPriceInclVat: Type.Number(),
  OriginalUnitVat: Type.Number(),
  FeeFixed: Type.Number(),
  FeeRate: Type.Number(),
  DeliveryTimeIndication: Nullable(Type.String())
})
export const OrderView = Type.Object({
  Id: Type.Integer({ description: 'use as OrderId when acknowledging' }),
  MerchantReference: Nullable(Type.String()),
  ChannelReference: Type.String(),
  ChannelName: Type.String(),
  Status: Type.String(),
  Phone: Nullable(Type.String()),
  Email: Type.String(),
  CompanyRegistrationNo: Nullable(Type.String()),
  VatNo: Nullable(Type.String()),
  PaymentMethod: Nullable(Type.String()),
  ShippingCostsInclVat: Type.Number(),
  ShippingCostsVat: Type.Number(),
  TotalInclVat: Type.Number(),
  TotalVat: Type.Number(),
  OriginalShippingCostsInclVat: Type.Number(),
  OriginalShippingCostsVat: Type.Number(),
  OriginalTotalInclVat: Type.Number(),
  OriginalTotalVat: Type.Number(),
  CurrencyCode: Type.String(),
  OrderDate: Nullable(Type.String()),
  AcknowledgedDate: Nullable(Type.String()),
  CreatedAt: Type.String(),
  CanShipPartialOrderLines: Type.Boolean(),
  ChannelCustomerReference: Nullable(Type.String()),
  MaxVatRate: Type.Number(),
  BillingAddress: Nullable(Address),
  ShippingAddress: Address,
  ExtraData: ExtraData,
  Lines: Type.Array(OrderLineView)
})

export const AcknowledgeBody = Type.Object({
  MerchantOrderReference: Ref("the merchant's reference for the order; later calls use it", 50),
  OrderId: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Id of the order' }),
  Lines: Type.Array(Type.Object({
    OrderLineId: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Id of the order line' }),
    MerchantOrderLineReference: Ref("the merchant's reference for the line", 100)
  }), { minItems: 1, maxItems: 500, description: 'every line of the order, once' })
})

// ---------------------------------------------------------------- backorders, cancellations, shipments, returns
const OrderRefFields = {
  MerchantOrderReference: Type.Optional(Ref("the order's merchant reference (required for merchant keys)", 50)),
  ChannelOrderReference: Type.Optional(Ref("the order's channel reference (channel keys may use it instead)", 60))
}
const LineRefFields = {
  MerchantOrderLineReference: Type.Optional(Ref('the merchant reference of the order line', 100)),
  ChannelOrderLineReference: Type.Optional(Ref('the channel reference of the order line (instead of MerchantOrderLineReference)', 100))
}
const LineView = {
  MerchantOrderLineReference: Nullable(Type.String()),
  ChannelOrderLineReference: Type.String(),
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
  Reason: Type.Optional(Text(500)),
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
  MerchantShipmentReference: Ref('unique reference of this shipment'),
  ...OrderRefFields,
  TrackTraceNo: Type.Optional(Text(50)),
  TrackTraceUrl: Type.Optional(Text(250)),
  Method: Type.Optional(Text(50, 'carrier name')),
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
  RefundExclVat: Type.Optional(Money('refund excluding VAT'))
}
export const ReturnBody = Type.Object({
  MerchantReturnReference: Type.Optional(Ref('unique reference of this return (merchant keys: required)')),
  ChannelReturnReference: Type.Optional(Ref("the channel's reference of this return (channel keys: this or MerchantReturnReference)")),
  ...OrderRefFields,
  Status: Type.Optional(Enum(RETURN_STATUSES, 'default DECLARED')),
  Reason: Type.Optional(Enum(RETURN_REASONS, 'default OTHER')),
  CustomerComment: Type.Optional(Text(2000)),
  MerchantComment: Type.Optional(Text(2000)),
  RefundInclVat: Type.Optional(Money('refund including VAT')),
  RefundExclVat: Type.Optional(Money('refund excluding VAT')),
  Lines: LinesOf(Type.Object({ ...LineRefFields, Quantity, ...ReturnLineAmounts }))
})
export const ReturnView = Type.Object({
  MerchantReturnReference: Nullable(Type.String()),
  ChannelReturnReference: Nullable(Type.String()),
  MerchantOrderReference: Nullable(Type.String()),
  ChannelOrderReference: Type.String(),
  Status: Type.String(),
  Reason: Type.String(),
  CustomerComment: Nullable(Type.String()),
  MerchantComment: Nullable(Type.String()),
  RefundInclVat: Nullable(Type.Number()),
  RefundExclVat: Nullable(Type.Number()),
  CreatedAt: Type.String(),
  Lines: Type.Array(Type.Object({
    ...LineView,
    AcceptedQuantity: Nullable(Type.Integer()),
    RejectedQuantity: Nullable(Type.Integer()),
    RefundInclVat: Nullable(Type.Number()),
    RefundExclVat: Nullable(Type.Number())
  }))
})

// ---------------------------------------------------------------- products
const productFields = {
  MerchantProductReference: Ref('unique per customer; never reusable after DELETE'),
  ChannelProductReference: Type.Optional(Nullable(Text(250, 'ignored on input: each channel acknowledges its own'))),
  ParentMerchantReference: Type.Optional(Nullable(Text(250, "the parent's MerchantProductReference (or nest the child in Children)"))),
  Name: Ref('product name', 500),
  Description: Type.Optional(Nullable(Text(10_000))),
  Details: Type.Optional(Nullable(Text(10_000))),
  Brand: Type.Optional(Nullable(Text())),
  Size: Type.Optional(Nullable(Text(100))),
  Color: Type.Optional(Nullable(Text(100))),
  Ean: Type.Optional(Nullable(Text(50))),
  ManufacturerProductNumber: Type.Optional(Nullable(Text(100))),
  Stock: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'default 0' })),
  Price: Type.Optional(Nullable(Money('price including VAT'))),
  MSRP: Type.Optional(Nullable(Money('manufacturer suggested retail price'))),
  PurchasePrice: Type.Optional(Nullable(Money('purchase price'))),
  DiscountRate: Type.Optional(Nullable(Rate('discount rate'))),
  VatRate: Type.Optional(Nullable(Rate('VAT rate'))),
  ShippingCost: Type.Optional(Nullable(Money('shipping cost'))),
  ShippingTime: Type.Optional(Nullable(Text(100))),
  Url: Type.Optional(Nullable(Text(2000))),
  ImageUrl: Type.Optional(Nullable(Text(2000))),
  CategoryTrail: Type.Optional(Nullable(Text(1000))),
  ExtraData: Type.Optional(Nullable(ExtraData))
}
/** A child: the same fields; "Children" is accepted only to reject grandchildren with a clear 400. */
export const ChildProductRequest = Type.Object({ ...productFields, Children: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 1000, description: 'must be empty: one level of nesting only' })) })
export const ProductRequest = Type.Object({ ...productFields, Children: Type.Optional(Type.Array(ChildProductRequest, { maxItems: 1000 })) })
export const UpsertProductsBody = Type.Array(ProductRequest, { minItems: 1, maxItems: 1000, description: 'an array of products; a single product object is accepted too' })

const productViewFields = {
  MerchantProductReference: Type.String(),
  ChannelProductReference: Nullable(Type.String()),
  ParentMerchantReference: Nullable(Type.String()),
  Name: Type.String(),
  Description: Nullable(Type.String()),
  Details: Nullable(Type.String()),
  Brand: Nullable(Type.String()),
  Size: Nullable(Type.String()),
  Color: Nullable(Type.String()),
  Ean: Nullable(Type.String()),
  ManufacturerProductNumber: Nullable(Type.String()),
  Stock: Type.Integer(),
  Price: Nullable(Type.Number()),
  MSRP: Nullable(Type.Number()),
  PurchasePrice: Nullable(Type.Number()),
  DiscountRate: Nullable(Type.Number()),
  VatRate: Nullable(Type.Number()),
  ShippingCost: Nullable(Type.Number()),
  ShippingTime: Nullable(Type.String()),
  Url: Nullable(Type.String()),
  ImageUrl: Nullable(Type.String()),
  CategoryTrail: Nullable(Type.String()),
  ExtraData: ExtraData
}
export const ProductResponseView = Type.Object({ ...productViewFields, IsActive: Type.Boolean() })
export const ProductView = Type.Object({ ...productViewFields, ParentChannelReference: Nullable(Type.String()) })
export const ProductChangesEnvelope = Type.Object({
  ...EnvelopeFields,
  Content: Type.Object({
    ToBeCreated: Type.Array(ProductView),
    ToBeUpdated: Type.Array(ProductView),
    ToBeRemoved: Type.Array(ProductView)
  }),
  ToBeCreatedTotalCount: Type.Integer(),
  ToBeUpdatedTotalCount: Type.Integer(),
  ToBeRemovedTotalCount: Type.Integer(),
  ItemsPerPage: Type.Integer()
})

export const ProductDataAckBody = Type.Object({
  Created: Type.Optional(Type.Array(Type.Object({
    MerchantReference: Ref('MerchantProductReference of a product listed in ToBeCreated'),
    ChannelReference: Ref("the channel's own reference for it (unique per channel)")
  }), { maxItems: 10_000 })),
  Updated: Type.Optional(Type.Array(Ref('a ChannelReference acknowledged earlier in Created'), { maxItems: 10_000 })),
  Removed: Type.Optional(Type.Array(Ref('a ChannelReference acknowledged earlier in Created'), { maxItems: 10_000 }))
})
export const OfferView = Type.Object({
  ChannelProductReference: Type.String(),
  MerchantProductReference: Type.String(),
  Price: Nullable(Type.Number()),
  Stock: Type.Integer()
})
export const OfferAckBody = Type.Array(Ref('a ChannelReference whose price and stock the channel updated'), { maxItems: 10_000 })
