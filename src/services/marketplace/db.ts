import type { Generated, Kysely, Selectable, Transaction } from 'kysely'

/** A customer (tenant): every key, order and product belongs to exactly one. */
export interface CustomersTable {
  id: Generated<number>
  name: string
  /** Bumped by every product write; stamps products so acknowledgements know what the channel saw. */
  change_seq: number
  /** Bumped by every write that can change GET /v2/orders/new (keys its response cache). */
  orders_version: Generated<number>
  /** Bumped by every write that can change GET /v2/products/data (keys its response cache). */
  products_version: Generated<number>
  created_at: string
}

/** A sales channel of a customer (e.g. "bol"); each channel key belongs to one. */
export interface ChannelsTable {
  id: Generated<number>
  customer_id: number
  name: string
  /** customer change_seq at the channel's latest GET /v2/products/data. */
  data_seen_seq: number
  /** customer change_seq at the channel's latest GET /v2/products/offers. */
  offer_seen_seq: number
  created_at: string
}

export type Role = 'merchant' | 'channel'

export interface ApiKeysTable {
  id: Generated<number>
  customer_id: number
  role: Role
  channel_id: number | null
  key_hash: string
  /** First characters of the key, shown by `quartet keys list` and accepted by revoke. */
  prefix: string
  created_at: string
  revoked_at: string | null
}

export interface OrdersTable {
  id: Generated<number>
  customer_id: number
  channel_id: number
  channel_reference: string
  merchant_reference: string | null
  status: string
  email: string
  currency_code: string
  order_date: string | null
  acknowledged_at: string | null
  /** Money in integer minor units (cents). */
  shipping_costs_cents: number
  shipping_vat_cents: number
  total_incl_vat_cents: number
  total_vat_cents: number
  max_vat_rate: string
  /** The remaining OrderViewModel fields (addresses, contact, extra data) as JSON text. */
  data: string
  created_at: string
  updated_at: string
}

export interface OrderLinesTable {
  id: Generated<number>
  order_id: number
  customer_id: number
  line_no: number
  channel_reference: string
  merchant_reference: string | null
  merchant_product_reference: string
  status: string
  quantity: number
  shipped_quantity: number
  cancelled_quantity: number
  backorder_quantity: number
  returned_quantity: number
  unit_price_cents: number
  unit_vat_cents: number
  vat_rate: string
  fee_fixed_cents: number
  fee_rate: string
  delivery_time_indication: string | null
}

export type FulfilmentKind = 'backorder' | 'cancellation' | 'shipment' | 'return'

export interface FulfilmentsTable {
  id: Generated<number>
  customer_id: number
  channel_id: number
  order_id: number
  kind: FulfilmentKind
  merchant_reference: string | null
  channel_reference: string | null
  /** Kind-specific fields (track & trace, reason, comments, refunds) as JSON text. */
  data: string
  created_at: string
}

export interface FulfilmentLinesTable {
  id: Generated<number>
  fulfilment_id: number
  order_line_id: number
  quantity: number
  data: string
}

export interface ProductsTable {
  id: Generated<number>
  customer_id: number
  merchant_reference: string
  parent_id: number | null
  is_active: number
  /** The ProductViewModel fields except Price and Stock, as canonical JSON text. */
  data: string
  data_hash: string
  data_seq: number
  price_cents: number | null
  stock: number
  offer_hash: string
  offer_seq: number
  created_at: string
  updated_at: string
}

/** What one channel has acknowledged of one product. */
export interface ProductChannelStateTable {
  id: Generated<number>
  channel_id: number
  product_id: number
  channel_reference: string
  data_hash: string
  offer_hash: string
  removed: number
  updated_at: string
}

export interface MarketplaceTables {
  mp_customers: CustomersTable
  mp_channels: ChannelsTable
  mp_api_keys: ApiKeysTable
  mp_orders: OrdersTable
  mp_order_lines: OrderLinesTable
  mp_fulfilments: FulfilmentsTable
  mp_fulfilment_lines: FulfilmentLinesTable
  mp_products: ProductsTable
  mp_product_channel_state: ProductChannelStateTable
}

export type MarketplaceDb = Kysely<MarketplaceTables>
export type MarketplaceTrx = Transaction<MarketplaceTables>
/** Where a repository query runs: the database, or the transaction of a write. */
export type MarketplaceExecutor = MarketplaceDb | MarketplaceTrx
export type ApiKeyRow = Selectable<ApiKeysTable>
export type OrderRow = Selectable<OrdersTable>
export type OrderLineRow = Selectable<OrderLinesTable>
export type FulfilmentRow = Selectable<FulfilmentsTable>
export type FulfilmentLineRow = Selectable<FulfilmentLinesTable>
export type ProductRow = Selectable<ProductsTable>

/** Splits a list into chunks small enough for one IN (...) list on every dialect. */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Runs `query` for each IN-list-sized chunk of `items`, one after the other, and joins the rows. */
export async function selectInChunks<T, R>(items: readonly T[], query: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = []
  for (const chunk of chunks(items)) out.push(...(await query(chunk)))
  return out
}

/** Rows grouped by `keyOf`, each group in the rows' order (children for their parents). */
export function groupBy<R, K>(rows: readonly R[], keyOf: (row: R) => K): Map<K, R[]> {
  const groups = new Map<K, R[]>()
  for (const row of rows) {
    const key = keyOf(row)
    const group = groups.get(key)
    if (group) group.push(row)
    else groups.set(key, [row])
  }
  return groups
}
