import { sql, type Insertable, type Transaction } from 'kysely'
import type { FulfilmentKind, FulfilmentLinesTable, FulfilmentsTable, MarketplaceDb, MarketplaceTables } from '../../db.js'
import type { FulfilmentWithLines } from '../../render.js'
import { lineStatus, orderStatus } from '../../status.js'
import { chunks } from '../../values.js'
import type { OrderScope } from '../orders/orders.repository.js'

type Trx = Transaction<MarketplaceTables>

export function createFulfilmentsRepository(db: MarketplaceDb) {
  async function attach(rows: (Omit<FulfilmentWithLines, 'lines'>)[]): Promise<FulfilmentWithLines[]> {
    if (rows.length === 0) return []
    const byId = new Map<number, FulfilmentWithLines['lines']>()
    for (const ids of chunks(rows.map((r) => r.id))) {
      const lines = await db.selectFrom('mp_fulfilment_lines as fl')
        .innerJoin('mp_order_lines as ol', 'ol.id', 'fl.order_line_id')
        .selectAll('fl')
        .select(['ol.merchant_reference as line_merchant_reference', 'ol.channel_reference as line_channel_reference'])
        .where('fl.fulfilment_id', 'in', ids).orderBy('fl.id').execute()
      for (const line of lines) {
        let list = byId.get(line.fulfilment_id)
        if (!list) byId.set(line.fulfilment_id, (list = []))
        list.push(line)
      }
    }
    return rows.map((r) => ({ ...r, lines: byId.get(r.id) ?? [] }))
  }

  function base(scope: OrderScope, kind: FulfilmentKind) {
    let query = db.selectFrom('mp_fulfilments as f')
      .innerJoin('mp_orders as o', 'o.id', 'f.order_id')
      .selectAll('f')
      .select(['o.merchant_reference as order_merchant_reference', 'o.channel_reference as order_channel_reference'])
      .where('f.customer_id', '=', scope.customerId).where('f.kind', '=', kind)
    if (scope.channelId !== undefined && scope.channelId !== null) query = query.where('f.channel_id', '=', scope.channelId)
    return query
  }

  return {
    async insert(trx: Trx, row: Insertable<FulfilmentsTable>, lines: Omit<Insertable<FulfilmentLinesTable>, 'fulfilment_id'>[]): Promise<number> {
      const { id } = await trx.insertInto('mp_fulfilments').values(row).returning('id').executeTakeFirstOrThrow()
      await trx.insertInto('mp_fulfilment_lines').values(lines.map((l) => ({ ...l, fulfilment_id: id }))).execute()
      return id
    },

    /**
     * Moves `quantity` units of one line, guarded in the UPDATE itself so it can never go past
     * what is open (or shipped, for returns) even under concurrency. False when the guard refused.
     */
    async applyLine(trx: Trx, kind: FulfilmentKind, lineId: number, quantity: number): Promise<boolean> {
      const open = sql<number>`quantity - shipped_quantity - cancelled_quantity`
      let query
      switch (kind) {
        case 'shipment':
        case 'cancellation': {
          const column = kind === 'shipment' ? 'shipped_quantity' : 'cancelled_quantity'
          const remaining = sql<number>`quantity - shipped_quantity - cancelled_quantity - ${quantity}`
          query = trx.updateTable('mp_order_lines')
            .set({
              [column]: sql`${sql.ref(column)} + ${quantity}`,
              // Backordered units are the open ones still waiting: never more than stay open.
              backorder_quantity: sql`case when backorder_quantity > ${remaining} then ${remaining} else backorder_quantity end`
            })
            .where('id', '=', lineId).where(open, '>=', quantity)
          break
        }
        case 'backorder':
          query = trx.updateTable('mp_order_lines').set({ backorder_quantity: sql`backorder_quantity + ${quantity}` })
            .where('id', '=', lineId).where(sql<number>`quantity - shipped_quantity - cancelled_quantity - backorder_quantity`, '>=', quantity)
          break
        case 'return':
          query = trx.updateTable('mp_order_lines').set({ returned_quantity: sql`returned_quantity + ${quantity}` })
            .where('id', '=', lineId).where(sql<number>`shipped_quantity - returned_quantity`, '>=', quantity)
          break
      }
      const result = await query.executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /** Re-derives line and order statuses from the quantities now stored. */
    async refreshStatuses(trx: Trx, orderId: number, acknowledged: boolean, now: string): Promise<void> {
      const lines = await trx.selectFrom('mp_order_lines').selectAll().where('order_id', '=', orderId).orderBy('line_no').execute()
      const derived = lines.map((l) => ({ ...l, status: lineStatus(l, acknowledged) }))
      for (const line of derived) {
        const before = lines.find((l) => l.id === line.id)
        if (before?.status !== line.status) await trx.updateTable('mp_order_lines').set({ status: line.status }).where('id', '=', line.id).execute()
      }
      await trx.updateTable('mp_orders').set({ status: orderStatus(derived), updated_at: now }).where('id', '=', orderId).execute()
    },

    async findOne(scope: OrderScope, kind: FulfilmentKind, reference: string, alsoChannelReference: boolean): Promise<FulfilmentWithLines | undefined> {
      const rows = await base(scope, kind)
        .where((eb) => alsoChannelReference
          ? eb.or([eb('f.merchant_reference', '=', reference), eb('f.channel_reference', '=', reference)])
          : eb('f.merchant_reference', '=', reference))
        .orderBy('f.id').limit(1).execute()
      return (await attach(rows))[0]
    },

    async findById(id: number): Promise<FulfilmentWithLines | undefined> {
      const rows = await db.selectFrom('mp_fulfilments as f').innerJoin('mp_orders as o', 'o.id', 'f.order_id')
        .selectAll('f').select(['o.merchant_reference as order_merchant_reference', 'o.channel_reference as order_channel_reference'])
        .where('f.id', '=', id).execute()
      return (await attach(rows))[0]
    },

    /** Created at or after `since` (ISO text compares in time order), oldest first, one page. */
    async listSince(scope: OrderScope, kind: FulfilmentKind, since: string, offset: number, limit: number): Promise<{ items: FulfilmentWithLines[]; total: number }> {
      let count = db.selectFrom('mp_fulfilments').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('customer_id', '=', scope.customerId).where('kind', '=', kind).where('created_at', '>=', since)
      if (scope.channelId !== undefined && scope.channelId !== null) count = count.where('channel_id', '=', scope.channelId)
      const [rows, total] = await Promise.all([
        base(scope, kind).where('f.created_at', '>=', since).orderBy('f.created_at').orderBy('f.id').limit(limit).offset(offset).execute(),
        count.executeTakeFirstOrThrow()
      ])
      return { items: await attach(rows), total: Number(total.n) }
    }
  }
}
export type FulfilmentsRepository = ReturnType<typeof createFulfilmentsRepository>
