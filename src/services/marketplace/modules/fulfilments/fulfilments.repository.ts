import { sql, type Insertable } from 'kysely'
import {
  groupBy,
  selectInChunks,
  type FulfilmentKind,
  type FulfilmentLineRow,
  type FulfilmentLinesTable,
  type FulfilmentRow,
  type FulfilmentsTable,
  type MarketplaceDb,
  type MarketplaceTrx
} from '../../db.js'
import type { OrderScope } from '../orders/orders.repository.js'

export interface FulfilmentWithLines extends FulfilmentRow {
  order_merchant_reference: string | null
  order_channel_reference: string
  lines: (FulfilmentLineRow & {
    line_merchant_reference: string | null
    line_channel_reference: string
    merchant_product_reference: string
    channel_product_reference: string | null
  })[]
}

export function createFulfilmentsRepository(db: MarketplaceDb) {
  async function attachLines(rows: Omit<FulfilmentWithLines, 'lines'>[]): Promise<FulfilmentWithLines[]> {
    if (rows.length === 0) return []
    const lines = await selectInChunks(
      rows.map((r) => r.id),
      (ids) =>
        db
          .selectFrom('mp_fulfilment_lines as fl')
          .innerJoin('mp_order_lines as ol', 'ol.id', 'fl.order_line_id')
          .innerJoin('mp_fulfilments as f', 'f.id', 'fl.fulfilment_id')
          // The product's reference at the order's channel, when that channel acknowledged it.
          .leftJoin('mp_products as p', (j) =>
            j.onRef('p.customer_id', '=', 'f.customer_id').onRef('p.merchant_reference', '=', 'ol.merchant_product_reference')
          )
          .leftJoin('mp_product_channel_state as s', (j) => j.onRef('s.product_id', '=', 'p.id').onRef('s.channel_id', '=', 'f.channel_id'))
          .selectAll('fl')
          .select([
            'ol.merchant_reference as line_merchant_reference',
            'ol.channel_reference as line_channel_reference',
            'ol.merchant_product_reference',
            's.channel_reference as channel_product_reference'
          ])
          .where('fl.fulfilment_id', 'in', ids)
          .orderBy('fl.id')
          .execute()
    )
    const byFulfilment = groupBy(lines, (line) => line.fulfilment_id)
    return rows.map((r) => ({ ...r, lines: byFulfilment.get(r.id) ?? [] }))
  }

  /** Fulfilments with the references of their order. */
  const withOrder = () =>
    db
      .selectFrom('mp_fulfilments as f')
      .innerJoin('mp_orders as o', 'o.id', 'f.order_id')
      .selectAll('f')
      .select(['o.merchant_reference as order_merchant_reference', 'o.channel_reference as order_channel_reference'])

  function inScope(scope: OrderScope, kind: FulfilmentKind) {
    const query = withOrder().where('f.customer_id', '=', scope.customerId).where('f.kind', '=', kind)
    return scope.channelId !== undefined && scope.channelId !== null ? query.where('f.channel_id', '=', scope.channelId) : query
  }

  return {
    async insert(
      trx: MarketplaceTrx,
      row: Insertable<FulfilmentsTable>,
      lines: Omit<Insertable<FulfilmentLinesTable>, 'fulfilment_id'>[]
    ): Promise<number> {
      const { id } = await trx.insertInto('mp_fulfilments').values(row).returning('id').executeTakeFirstOrThrow()
      await trx
        .insertInto('mp_fulfilment_lines')
        .values(lines.map((l) => ({ ...l, fulfilment_id: id })))
        .execute()
      return id
    },

    /**
     * Moves `quantity` units of one line, guarded in the UPDATE itself so it can never go past
     * what is open (or shipped, for returns) even under concurrency. False when the guard refused.
     */
    async applyLine(trx: MarketplaceTrx, kind: FulfilmentKind, lineId: number, quantity: number): Promise<boolean> {
      const open = sql<number>`quantity - shipped_quantity - cancelled_quantity`
      let query
      switch (kind) {
        case 'shipment':
        case 'cancellation': {
          const column = kind === 'shipment' ? 'shipped_quantity' : 'cancelled_quantity'
          const remaining = sql<number>`quantity - shipped_quantity - cancelled_quantity - ${quantity}`
          query = trx
            .updateTable('mp_order_lines')
            .set({
              [column]: sql`${sql.ref(column)} + ${quantity}`,
              // Backordered units are the open ones still waiting: never more than stay open.
              backorder_quantity: sql`case when backorder_quantity > ${remaining} then ${remaining} else backorder_quantity end`
            })
            .where('id', '=', lineId)
            .where(open, '>=', quantity)
          break
        }
        case 'backorder':
          query = trx
            .updateTable('mp_order_lines')
            .set({ backorder_quantity: sql`backorder_quantity + ${quantity}` })
            .where('id', '=', lineId)
            .where(sql<number>`quantity - shipped_quantity - cancelled_quantity - backorder_quantity`, '>=', quantity)
          break
        case 'return':
          query = trx
            .updateTable('mp_order_lines')
            .set({ returned_quantity: sql`returned_quantity + ${quantity}` })
            .where('id', '=', lineId)
            .where(sql<number>`shipped_quantity - returned_quantity`, '>=', quantity)
          break
      }
      const result = await query.executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    async findOne(
      scope: OrderScope,
      kind: FulfilmentKind,
      reference: string,
      alsoChannelReference: boolean
    ): Promise<FulfilmentWithLines | undefined> {
      const rows = await inScope(scope, kind)
        .where((eb) =>
          alsoChannelReference
            ? eb.or([eb('f.merchant_reference', '=', reference), eb('f.channel_reference', '=', reference)])
            : eb('f.merchant_reference', '=', reference)
        )
        .orderBy('f.id')
        .limit(1)
        .execute()
      return (await attachLines(rows))[0]
    },

    /** Merchant product reference → the channel's reference of that product, for the given products. */
    async channelProductReferences(
      trx: MarketplaceTrx,
      customerId: number,
      channelId: number,
      merchantReferences: string[]
    ): Promise<Map<string, string>> {
      const rows = await selectInChunks(merchantReferences, (refs) =>
        trx
          .selectFrom('mp_products as p')
          .innerJoin('mp_product_channel_state as s', (j) => j.onRef('s.product_id', '=', 'p.id').on('s.channel_id', '=', channelId))
          .select(['p.merchant_reference', 's.channel_reference'])
          .where('p.customer_id', '=', customerId)
          .where('p.merchant_reference', 'in', refs)
          .execute()
      )
      return new Map(rows.map((r) => [r.merchant_reference, r.channel_reference]))
    },

    async findById(id: number): Promise<FulfilmentWithLines | undefined> {
      return (await attachLines(await withOrder().where('f.id', '=', id).execute()))[0]
    },

    /** Created at or after `since` (ISO text compares in time order), oldest first, one page. */
    async listSince(
      scope: OrderScope,
      kind: FulfilmentKind,
      since: string,
      offset: number,
      limit: number
    ): Promise<{ items: FulfilmentWithLines[]; total: number }> {
      let count = db
        .selectFrom('mp_fulfilments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('customer_id', '=', scope.customerId)
        .where('kind', '=', kind)
        .where('created_at', '>=', since)
      if (scope.channelId !== undefined && scope.channelId !== null) count = count.where('channel_id', '=', scope.channelId)
      const [rows, total] = await Promise.all([
        inScope(scope, kind)
          .where('f.created_at', '>=', since)
          .orderBy('f.created_at')
          .orderBy('f.id')
          .limit(limit)
          .offset(offset)
          .execute(),
        count.executeTakeFirstOrThrow()
      ])
      return { items: await attachLines(rows), total: Number(total.n) }
    }
  }
}
export type FulfilmentsRepository = ReturnType<typeof createFulfilmentsRepository>
