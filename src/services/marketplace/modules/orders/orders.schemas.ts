import { Type } from 'typebox'
import { DateTime, Enum, ExtraData, Money, Nullable, Rate, Ref, Text } from '../../http/fields.js'

const GENDERS = ['MALE', 'FEMALE', 'NOT_APPLICABLE'] as const

// The official OpenAPI marks the optional strings nullable: null is accepted and kept as null.
const Address = Type.Object({
  Gender: Type.Optional(Enum(GENDERS)),
  Salutation: Type.Optional(Nullable(Text(50))),
  CompanyName: Type.Optional(Nullable(Text())),
  FirstName: Type.Optional(Nullable(Text())),
  LastName: Type.Optional(Nullable(Text())),
  StreetName: Type.Optional(Nullable(Text())),
  HouseNr: Type.Optional(Nullable(Text(50))),
  HouseNrAddition: Type.Optional(Nullable(Text(50))),
  ZipCode: Type.Optional(Nullable(Text(50))),
  City: Type.Optional(Nullable(Text())),
  Region: Type.Optional(Nullable(Text())),
  CountryIso: Type.Optional(Nullable(Type.String({ maxLength: 3, description: 'ISO 3166 country code' }))),
  Original: Type.Optional(Nullable(Text(256, 'the address as the customer typed it (2016 clients)')))
})

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page' }))
})

const CreateOrderLine = Type.Object({
  ChannelReference: Type.Optional(
    Ref("the channel's unique reference of the line; default: the line's product reference (one line per product then)", 100)
  ),
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
  ChannelCustomerReference: Type.Optional(Nullable(Text())),
  Phone: Type.Optional(Nullable(Text(50))),
  Email: Type.String({ minLength: 3, maxLength: 250, pattern: '^[^\\s@]+@[^\\s@]+$' }),
  CompanyRegistrationNo: Type.Optional(Nullable(Text(50))),
  VatNo: Type.Optional(Nullable(Text(50))),
  PaymentMethod: Type.Optional(Nullable(Text(100))),
  ShippingCostsInclVat: Type.Optional(Money('shipping costs including VAT')),
  CurrencyCode: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217' }),
  OrderDate: Type.Optional(DateTime('when the customer ordered')),
  CanShipPartialOrderLines: Type.Optional(Type.Boolean({ default: true })),
  BillingAddress: Type.Optional(Address),
  ShippingAddress: Address,
  Lines: Type.Array(CreateOrderLine, { minItems: 1, maxItems: 500 }),
  ExtraData: Type.Optional(Nullable(ExtraData))
})

const OrderLineView = Type.Object({
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
  Lines: Type.Optional(
    Type.Array(
      Type.Object({
        OrderLineId: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Id of the order line' }),
        MerchantOrderLineReference: Ref("the merchant's reference for the line", 100)
      }),
      {
        minItems: 1,
        maxItems: 500,
        description:
          'every line of the order, once; ' +
          'without Lines (2016 clients) line n is named "<MerchantOrderReference>-<n>" (or by its product reference)'
      }
    )
  )
})
