import { Type } from 'typebox'
import type { MarketplaceCompat } from '../../config.js'
import { Collection, EnvelopeFields, Single } from '../../http/envelope.js'
import { Enum, ExtraData, Money, Nullable, Rate, Ref, Text } from '../../http/fields.js'

export const VAT_RATE_TYPES = ['STANDARD', 'REDUCED', 'SUPER_REDUCED'] as const
export const EXTRA_DATA_TYPES = ['TEXT', 'NUMBER', 'URL', 'IMAGEURL'] as const
/** One ExtraData entry as the 2016 "Merchant:" clients send it (ExtraDataItem). */
const ExtraDataItem = Type.Object({
  Key: Type.String({ minLength: 1, maxLength: 100 }),
  Value: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  Type: Type.Optional(Enum(EXTRA_DATA_TYPES, 'default TEXT')),
  IsPublic: Type.Optional(Type.Boolean({ description: 'whether channels may show it' }))
})

export const ChangesQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page of each list' })),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'items per list and page (default MARKETPLACE_PAGE_SIZE, max 1000)' })
  ),
  maxCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "the 2016 clients' name for pageSize" }))
})

const productFields = {
  MerchantProductReference: Ref('unique per customer; never reusable after DELETE (or send MerchantReference)'),
  MerchantReference: Type.Optional(Ref("the 2016 clients' name for MerchantProductReference")),
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
  VatRateType: Type.Optional(Enum(VAT_RATE_TYPES, 'the kind of VAT rate (2016 clients); stored beside VatRate')),
  ShippingCost: Type.Optional(Nullable(Money('shipping cost'))),
  ShippingTime: Type.Optional(Nullable(Text(100))),
  Url: Type.Optional(Nullable(Text(2000))),
  ImageUrl: Type.Optional(Nullable(Text(2000))),
  CategoryTrail: Type.Optional(Nullable(Text(1000))),
  ExtraData: Type.Optional(
    Type.Union([ExtraData, Type.Array(ExtraDataItem, { maxItems: 1000 }), Type.Null()], {
      description: 'key/value pairs, or a list of {Key, Value, Type, IsPublic}'
    })
  )
}
/** A child: the same fields; "Children" is accepted only to reject grandchildren with a clear 400. */
export const ChildProductRequest = Type.Object({
  ...productFields,
  Children: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 1000, description: 'must be empty: one level of nesting only' }))
})
export const ProductRequest = Type.Object({
  ...productFields,
  Children: Type.Optional(Type.Array(ChildProductRequest, { maxItems: 1000 }))
})
export const UpsertProductsBody = Type.Array(ProductRequest, {
  minItems: 1,
  maxItems: 1000,
  description: 'an array of products; a single product object is accepted too'
})

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
  VatRateType: Nullable(Type.String()),
  ShippingCost: Nullable(Type.Number()),
  ShippingTime: Nullable(Type.String()),
  Url: Nullable(Type.String()),
  ImageUrl: Nullable(Type.String()),
  CategoryTrail: Nullable(Type.String())
}
const ExtraDataItemView = Type.Object({
  Key: Type.String(),
  Value: Type.String(),
  Type: Type.String({ description: 'TEXT, NUMBER, URL or IMAGEURL; TEXT unless sent otherwise' }),
  IsPublic: Nullable(Type.Boolean({ description: 'as sent; null when never sent' }))
})

/** Messages about the products of a POST /v2/products (ProductCreationResult of the 2016 clients). */
const ProductMessage = Type.Object({
  Name: Nullable(Type.String()),
  Reference: Type.String(),
  Warnings: Type.Array(Type.String()),
  Errors: Type.Array(Type.String())
})
const ProductCreationResult = Type.Object({
  AcceptedCount: Type.Integer({ description: 'products written (parents, children and singles)' }),
  RejectedCount: Type.Integer({ description: 'always 0: a request with an invalid product is refused as a whole (400)' }),
  ProductMessages: Type.Array(ProductMessage, { description: 'messages about rejected products: none, see RejectedCount' })
})

/**
 * The response shapes of the product routes (MARKETPLACE_COMPAT): 'g2', the default, those the
 * official 2016 client reads; 'g1' the G1 view models where the two differ (docs/compatibility.md).
 */
export function productViews(compat: MarketplaceCompat) {
  const extraData = compat === 'g2' ? Type.Array(ExtraDataItemView) : ExtraData
  const ProductView = Type.Object({
    ...productViewFields,
    ExtraData: extraData,
    Id: Type.Integer({ description: 'the product id; acknowledge by it or by MerchantReference' }),
    ParentChannelReference: Nullable(Type.String())
  })
  const ProductResponseView = Type.Object({ ...productViewFields, ExtraData: extraData, IsActive: Type.Boolean() })
  const ProductChangesEnvelope = Type.Object({
    ...EnvelopeFields,
    Content: Type.Object({
      ToBeCreated: Type.Array(ProductView),
      ToBeUpdated: Type.Array(ProductView),
      ToBeRemoved:
        compat === 'g2'
          ? Type.Array(Type.String({ description: 'the ChannelReference you acknowledged it under: echo it in Removed' }))
          : Type.Array(ProductView)
    }),
    ToBeCreatedTotalCount: Type.Integer(),
    ToBeUpdatedTotalCount: Type.Integer(),
    ToBeRemovedTotalCount: Type.Integer(),
    ItemsPerPage: Type.Integer()
  })
  return {
    ProductResponseView,
    ProductChangesEnvelope,
    UpsertResponse: compat === 'g2' ? Single(ProductCreationResult) : Collection(ProductResponseView)
  }
}

// Each list may be null (the official OpenAPI marks them nullable): the same as leaving it out.
export const ProductDataAckBody = Type.Object({
  Created: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object({
          MerchantReference: Type.Optional(Ref('MerchantProductReference of a product listed in ToBeCreated (or give its Id)')),
          Id: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 9_007_199_254_740_991,
              description: 'the Id of a product listed in ToBeCreated (instead of MerchantReference)'
            })
          ),
          ChannelReference: Ref("the channel's own reference for it (unique per channel)")
        }),
        { maxItems: 10_000 }
      )
    )
  ),
  Updated: Type.Optional(Nullable(Type.Array(Ref('a ChannelReference acknowledged earlier in Created'), { maxItems: 10_000 }))),
  Removed: Type.Optional(Nullable(Type.Array(Ref('a ChannelReference acknowledged earlier in Created'), { maxItems: 10_000 })))
})
export const OfferView = Type.Object({
  ChannelProductReference: Type.String(),
  MerchantProductReference: Type.String(),
  Price: Nullable(Type.Number()),
  Stock: Type.Integer()
})
export const OfferAckBody = Type.Array(Ref('a ChannelReference whose price and stock the channel updated'), { maxItems: 10_000 })
