import { sql, type Insertable } from 'kysely'
import { dialectOf } from '../../../../core/db/database.js'
import { prepareQuery } from '../../../../core/db/prepared.js'
import {
  groupBy,
  selectInChunks,
  type MarketplaceDb,
  type MarketplaceExecutor,
  type MarketplaceTrx,
  type OrderLineRow,
  type OrderLinesTable,
  type OrderRow,
  type OrdersTable
} from '../../db.js'

export type OrderWithLines = OrderRow & { channel_name: string; lines: OrderLineRow[] }

export interface OrderScope {
  customerId: number
  /** Channel keys see only their own channel's orders. */
  channelId?: number | null | undefined
}

export function createOrdersRepository(db: MarketplaceDb) {
  const postgres = dialectOf(db) === 'postgres'

  async function attachLines(executor: MarketplaceExecutor, orders: (OrderRow & { channel_name: string })[]): Promise<OrderWithLines[]> {
    if (orders.length === 0) return []
    const lines = await selectInChunks(
      orders.map((o) => o.id),
      (ids) =>
        executor.selectFrom('mp_order_lines').selectAll().where('order_id', 'in', ids).orderBy('order_id').orderBy('line_no').execute()
    )
    const byOrder = groupBy(lines, (line) => line.order_id)
    return orders.map((o) => ({ ...o, lines: byOrder.get(o.id) ?? [] }))
  }

  /** Invalidates cached GET /v2/orders/new responses of the customer; call inside the write's transaction. */
  async function bumpOrdersVersion(trx: MarketplaceTrx, customerId: number): Promise<void> {
    await trx
      .updateTable('mp_customers')
      .set({ orders_version: sql`orders_version + 1` })
      .where('id', '=', customerId)
      .execute()
  }

  function ordersQuery(executor: MarketplaceExecutor, scope: OrderScope) {
    let query = executor
      .selectFrom('mp_orders as o')
      .innerJoin('mp_channels as ch', 'ch.id', 'o.channel_id')
      .selectAll('o')
      .select('ch.name as channel_name')
      .where('o.customer_id', '=', scope.customerId)
    if (scope.channelId !== undefined && scope.channelId !== null) query = query.where('o.channel_id', '=', scope.channelId)
    return query
  }

  // GET /v2/orders/new: the page and the total, built and compiled once.
  const newOrdersPage = prepareQuery(db, 3, (customerId: number, limit: number, offset: number) =>
    ordersQuery(db, { customerId }).where('o.status', '=', 'NEW').orderBy('o.id').limit(limit).offset(offset)
  )
  const newOrdersCount = prepareQuery(db, 1, (customerId: number) =>
    db
      .selectFrom('mp_orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('customer_id', '=', customerId)
      .where('status', '=', 'NEW')
  )
  const ordersVersionQuery = prepareQuery(db, 1, (customerId: number) =>
    db.selectFrom('mp_customers').select('orders_version').where('id', '=', customerId)
  )

  const repository = {
    /** Inserts the order and its lines in one transaction; returns the new order's id. */
    insertOrder(order: Insertable<OrdersTable>, lines: Omit<Insertable<OrderLinesTable>, 'order_id'>[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx.insertInto('mp_orders').values(order).returning('id').executeTakeFirstOrThrow()
        await trx
          .insertInto('mp_order_lines')
          .values(lines.map((l) => ({ ...l, order_id: id })))
          .execute()
        await bumpOrdersVersion(trx, order.customer_id)
        return id
      })
    },

    async findById(scope: OrderScope, id: number, executor: MarketplaceExecutor = db): Promise<OrderWithLines | undefined> {
      const order = await ordersQuery(executor, scope).where('o.id', '=', id).executeTakeFirst()
      return order ? (await attachLines(executor, [order]))[0] : undefined
    },

    async findByMerchantReference(scope: OrderScope, reference: string): Promise<OrderWithLines | undefined> {
      const order = await ordersQuery(db, scope).where('o.merchant_reference', '=', reference).executeTakeFirst()
      return order ? (await attachLines(db, [order]))[0] : undefined
    },

    /** The customer's orders version: every write that can change its NEW orders bumps it. */
    async ordersVersion(customerId: number): Promise<number> {
      const row = (await ordersVersionQuery(customerId))[0]
      if (!row) throw new Error(`customer ${customerId} does not exist`)
      return Number(row.orders_version)
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
    withLockedOrder<T>(
      scope: OrderScope,
      find: { id?: number; merchantReference?: string; channelReference?: string },
      work: (trx: MarketplaceTrx, order: OrderWithLines | undefined) => Promise<T>
    ): Promise<T> {
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
        await bumpOrdersVersion(trx, scope.customerId)
        return result
      })
    },

    /** Which order already uses this merchant reference, and which line one of these line references (each undefined when none). */
    async merchantReferencesInUse(trx: MarketplaceTrx, customerId: number, orderReference: string, lineReferences: string[]) {
      const order = await trx
        .selectFrom('mp_orders')
        .select('id')
        .where('customer_id', '=', customerId)
        .where('merchant_reference', '=', orderReference)
        .executeTakeFirst()
      // An acknowledgement without lines names none (and `in ()` is not SQL).
      const line =
        order || lineReferences.length === 0
          ? undefined
          : await trx
              .selectFrom('mp_order_lines')
              .select(['merchant_reference', 'order_id'])
              .where('customer_id', '=', customerId)
              .where('merchant_reference', 'in', lineReferences)
              .executeTakeFirst()
      return { order, line }
    },

    /** Which of these line references the customer's order lines already use. */
    async lineReferencesInUse(trx: MarketplaceTrx, customerId: number, references: string[]): Promise<Set<string>> {
      const rows = await selectInChunks(references, (chunk) =>
        trx
          .selectFrom('mp_order_lines')
          .select('merchant_reference')
          .where('customer_id', '=', customerId)
          .where('merchant_reference', 'in', chunk)
          .execute()
      )
      return new Set(rows.flatMap((row) => (row.merchant_reference === null ? [] : [row.merchant_reference])))
    },

    /** NEW → IN_PROGRESS with the merchant reference; false when another acknowledge won. */
    async acknowledge(
      trx: MarketplaceTrx,
      orderId: number,
      merchantReference: string,
      lineReferences: Map<number, string>,
      now: string
    ): Promise<boolean> {
      const result = await trx
        .updateTable('mp_orders')
        .set({ merchant_reference: merchantReference, status: 'IN_PROGRESS', acknowledged_at: now, updated_at: now })
        .where('id', '=', orderId)
        .where('status', '=', 'NEW')
        .where('merchant_reference', 'is', null)
        .executeTakeFirst()
      if (result.numUpdatedRows === 0n) return false
      await trx
        .updateTable('mp_order_lines')
        .set({ status: 'IN_PROGRESS' })
        .where('order_id', '=', orderId)
        .where('status', '=', 'NEW')
        .execute()
      for (const [lineId, reference] of lineReferences) {
        await trx
          .updateTable('mp_order_lines')
          .set({ merchant_reference: reference })
          .where('id', '=', lineId)
          .where('order_id', '=', orderId)
          .execute()
      }
      return true
    },

    linesOf(trx: MarketplaceTrx, orderId: number): Promise<OrderLineRow[]> {
      return trx.selectFrom('mp_order_lines').selectAll().where('order_id', '=', orderId).orderBy('line_no').execute()
    },

    async setLineStatus(trx: MarketplaceTrx, lineId: number, status: string): Promise<void> {
      await trx.updateTable('mp_order_lines').set({ status }).where('id', '=', lineId).execute()
    },

    async setOrderStatus(trx: MarketplaceTrx, orderId: number, status: string, now: string): Promise<void> {
      await trx.updateTable('mp_orders').set({ status, updated_at: now }).where('id', '=', orderId).execute()
    }
  }
  return repository
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>
