import type { Insertable, Transaction } from 'kysely'
import { dialectOf } from '../../../../core/db/database.js'
import { prepareQuery } from '../../../../core/db/prepared.js'
import type { MarketplaceDb, MarketplaceTables, OrderLineRow, OrderLinesTable, OrderRow, OrdersTable } from '../../db.js'
import { bumpVersion } from '../../read-cache.js'
import { chunks } from '../../values.js'

export type OrderWithLines = OrderRow & { channel_name: string; lines: OrderLineRow[] }
type Trx = Transaction<MarketplaceTables>

export interface OrderScope {
  customerId: number
  /** Channel keys see only their own channel's orders. */
  channelId?: number | null | undefined
}

export function createOrdersRepository(db: MarketplaceDb) {
  const postgres = dialectOf(db) === 'postgres'

  async function attachLines(executor: MarketplaceDb | Trx, orders: (OrderRow & { channel_name: string })[]): Promise<OrderWithLines[]> {
    if (orders.length === 0) return []
    const byOrder = new Map<number, OrderLineRow[]>()
    for (const ids of chunks(orders.map((o) => o.id))) {
      const lines = await executor.selectFrom('mp_order_lines').selectAll().where('order_id', 'in', ids).orderBy('order_id').orderBy('line_no').execute()
      for (const line of lines) {
        let list = byOrder.get(line.order_id)
        if (!list) byOrder.set(line.order_id, (list = []))
        list.push(line)
      }
    }
    return orders.map((o) => ({ ...o, lines: byOrder.get(o.id) ?? [] }))
  }

  function ordersQuery(executor: MarketplaceDb | Trx, scope: OrderScope) {
    let query = executor.selectFrom('mp_orders as o')
      .innerJoin('mp_channels as ch', 'ch.id', 'o.channel_id')
      .selectAll('o')
      .select('ch.name as channel_name')
      .where('o.customer_id', '=', scope.customerId)
    if (scope.channelId !== undefined && scope.channelId !== null) query = query.where('o.channel_id', '=', scope.channelId)
    return query
  }

  // GET /v2/orders/new: the page and the total, built and compiled once.
  const newOrdersPage = prepareQuery(db, 3, (customerId: number, limit: number, offset: number) =>
    ordersQuery(db, { customerId }).where('o.status', '=', 'NEW').orderBy('o.id').limit(limit).offset(offset))
  const newOrdersCount = prepareQuery(db, 1, (customerId: number) =>
    db.selectFrom('mp_orders').select((eb) => eb.fn.countAll<number>().as('n')).where('customer_id', '=', customerId).where('status', '=', 'NEW'))

  const repository = {
    /** Inserts the order and its lines in one transaction; returns the new order's id. */
    insertOrder(order: Insertable<OrdersTable>, lines: Omit<Insertable<OrderLinesTable>, 'order_id'>[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx.insertInto('mp_orders').values(order).returning('id').executeTakeFirstOrThrow()
        await trx.insertInto('mp_order_lines').values(lines.map((l) => ({ ...l, order_id: id }))).execute()
        await bumpVersion(trx, order.customer_id, 'orders_version')
        return id
      })
    },

    async findById(scope: OrderScope, id: number, executor: MarketplaceDb | Trx = db): Promise<OrderWithLines | undefined> {
      const order = await ordersQuery(executor, scope).where('o.id', '=', id).executeTakeFirst()
      return order ? (await attachLines(executor, [order]))[0] : undefined
    },

    async findByMerchantReference(scope: OrderScope, reference: string): Promise<OrderWithLines | undefined> {
      const order = await ordersQuery(db, scope).where('o.merchant_reference', '=', reference).executeTakeFirst()
      return order ? (await attachLines(db, [order]))[0] : undefined
    },

    /** NEW orders of the customer, oldest first, one page; with the total. */
    async listNew(customerId: number, offset: number, limit: number): Promise<{ orders: OrderWithLines[]; total: number }> {
      const [orders, count] = await Promise.all([newOrdersPage(customerId, limit, offset), newOrdersCount(customerId)])
      return { orders: await attachLines(db, orders), total: Number(count[0]?.n ?? 0) }
    },

    /**
     * Runs `work` in a transaction holding the order row (SELECT … FOR UPDATE on PostgreSQL;
     * SQLite serialises transactions on its one connection), with the order re-read inside it.
     * When `work` succeeds the customer's orders version is bumped in the same transaction (last,
     * so the customer row is locked only until the commit), invalidating cached order lists.
     */
    withLockedOrder<T>(scope: OrderScope, find: { id?: number; merchantReference?: string; channelReference?: string }, work: (trx: Trx, order: OrderWithLines | undefined) => Promise<T>): Promise<T> {
      return db.transaction().execute(async (trx) => {
        let query = trx.selectFrom('mp_orders').select('id').where('customer_id', '=', scope.customerId)
        if (scope.channelId !== undefined && scope.channelId !== null) query = query.where('channel_id', '=', scope.channelId)
        if (find.id !== undefined) query = query.where('id', '=', find.id)
        if (find.merchantReference !== undefined) query = query.where('merchant_reference', '=', find.merchantReference)
        if (find.channelReference !== undefined) query = query.where('channel_reference', '=', find.channelReference)
        const locked = await (postgres ? query.forUpdate() : query).limit(2).execute()
        // Two orders of different channels may share a channel reference: ambiguous → not found.
        const id = locked.length === 1 ? locked[0]?.id : undefined
        const order = id === undefined ? undefined : await repository.findById(scope, id, trx)
        const result = await work(trx, order)
        await bumpVersion(trx, scope.customerId, 'orders_version')
        return result
      })
    },

    /** NEW → IN_PROGRESS with the merchant reference; false when another acknowledge won. */
    async acknowledge(trx: Trx, orderId: number, merchantReference: string, lineReferences: Map<number, string>, now: string): Promise<boolean> {
      const result = await trx.updateTable('mp_orders')
        .set({ merchant_reference: merchantReference, status: 'IN_PROGRESS', acknowledged_at: now, updated_at: now })
        .where('id', '=', orderId).where('status', '=', 'NEW').where('merchant_reference', 'is', null)
        .executeTakeFirst()
      if (result.numUpdatedRows === 0n) return false
      for (const [lineId, reference] of lineReferences) {
        await trx.updateTable('mp_order_lines').set({ merchant_reference: reference, status: 'IN_PROGRESS' })
          .where('id', '=', lineId).where('order_id', '=', orderId).execute()
      }
      return true
    }
  }
  return repository
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>
