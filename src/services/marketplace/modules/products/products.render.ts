import type { MarketplaceCompat } from '../../config.js'
import type { ProductRow } from '../../db.js'
import { fromCents } from '../../money.js'
import { numberOrNull, parseStored, stringOrNull, type StoredJson } from '../../stored-json.js'
import type { ChannelProductRow } from './products.repository.js'

type ExtraDataTypes = Record<string, { Type: string | null; IsPublic: boolean | null }>

/**
 * The official 2016 client's list of ExtraDataItem (MARKETPLACE_COMPAT=g2, the default; Type TEXT
 * unless the merchant sent another), or the G1 key → value map (g1).
 */
function renderExtraData(d: StoredJson, compat: MarketplaceCompat) {
  const map = (d.ExtraData as Record<string, string> | null | undefined) ?? {}
  if (compat === 'g1') return map
  const types = (d.ExtraDataTypes as ExtraDataTypes | undefined) ?? {}
  return Object.entries(map).map(([Key, Value]) => ({
    Key,
    Value,
    Type: types[Key]?.Type ?? 'TEXT',
    IsPublic: types[Key]?.IsPublic ?? null
  }))
}

/** Stored product data (money in cents) → the ProductViewModel fields. */
function renderProductFields(
  product: Pick<ProductRow, 'merchant_reference' | 'data' | 'stock' | 'price_cents'>,
  parentReference: string | null,
  compat: MarketplaceCompat
) {
  const d = parseStored(product.data)
  const s = (key: string) => stringOrNull(d[key])
  const n = (key: string) => numberOrNull(d[key])
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
    VatRateType: s('VatRateType'),
    ShippingCost: fromCents(n('ShippingCost')),
    ShippingTime: s('ShippingTime'),
    Url: s('Url'),
    ImageUrl: s('ImageUrl'),
    CategoryTrail: s('CategoryTrail'),
    ExtraData: renderExtraData(d, compat)
  }
}

/** A product as the merchant sees it (its own routes): no channel reference, and whether it is active. */
export function renderMerchantProduct(product: ProductRow & { parent_reference: string | null }, compat: MarketplaceCompat) {
  return {
    ...renderProductFields(product, product.parent_reference, compat),
    ChannelProductReference: null,
    IsActive: product.is_active === 1
  }
}

/** A product of the sync lists, as one channel sees it. */
export function renderChannelProduct(row: ChannelProductRow, compat: MarketplaceCompat) {
  // Extends the fresh object instead of copying it (1,000 per page); the serialiser orders the keys.
  return Object.assign(renderProductFields(row, row.parent_reference, compat), {
    Id: row.id,
    ChannelProductReference: row.channel_reference,
    ParentChannelReference: row.parent_channel_reference
  })
}

/**
 * A product of ToBeRemoved: the ChannelReference the channel acknowledged it under (g2, what the
 * client's Removed acknowledgement takes back), or the G1 ProductViewModel (g1).
 */
export function renderRemovedProduct(row: ChannelProductRow, compat: MarketplaceCompat) {
  // Only products the channel created (acknowledged under a reference) are ever listed as removed.
  return compat === 'g1' ? renderChannelProduct(row, compat) : (row.channel_reference as string)
}

/** The answer to POST /v2/products: the official 2016 client's ProductCreationResult (g2), or the G1 products written (g1). */
export function renderUpsertResult(written: (ProductRow & { parent_reference: string | null })[], compat: MarketplaceCompat) {
  // Validation is all or nothing: a request is refused as a whole (400) or every product is written.
  if (compat === 'g2') return { AcceptedCount: written.length, RejectedCount: 0, ProductMessages: [] }
  return written.map((product) => renderMerchantProduct(product, compat))
}

/** An offer: the price and stock of a product the channel created. */
export function renderOffer(row: { channel_reference: string; merchant_reference: string; price_cents: number | null; stock: number }) {
  return {
    ChannelProductReference: row.channel_reference,
    MerchantProductReference: row.merchant_reference,
    Price: fromCents(row.price_cents === null ? null : Number(row.price_cents)),
    Stock: row.stock
  }
}
