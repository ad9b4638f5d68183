import { sql, type Insertable, type Updateable } from 'kysely'
import { prepareQuery } from '../../../../core/db/prepared.js'
import {
  chunks,
  selectInChunks,
  type MarketplaceDb,
  type MarketplaceExecutor,
  type MarketplaceTrx as Trx,
  type ProductRow,
  type ProductsTable
} from '../../db.js'

/** What a ProductViewModel of the sync lists needs (and nothing more: 1,000 rows per page). */
export type ChannelProductRow = Pick<ProductRow, 'id' | 'merchant_reference' | 'data' | 'price_cents' | 'stock'> & {
  parent_reference: string | null
  channel_reference: string | null
  parent_channel_reference: string | null
}
export type ChangeList = 'created' | 'updated' | 'removed'
const CHANGE_LISTS: ChangeList[] = ['created', 'updated', 'removed']

export function createProductsRepository(db: MarketplaceDb) {
  /** Products of a customer as one channel sees them: its reference and its parent's. */
  function channelView(customerId: number, channelId: number) {
    return db
      .selectFrom('mp_products as p')
      .leftJoin('mp_product_channel_state as s', (j) => j.onRef('s.product_id', '=', 'p.id').on('s.channel_id', '=', channelId))
      .leftJoin('mp_products as pp', 'pp.id', 'p.parent_id')
      .leftJoin('mp_product_channel_state as ps', (j) => j.onRef('ps.product_id', '=', 'p.parent_id').on('ps.channel_id', '=', channelId))
      .where('p.customer_id', '=', customerId)
  }

  function changeQuery(list: ChangeList, customerId: number, channelId: number) {
    const base = channelView(customerId, channelId)
    switch (list) {
      // Never acknowledged by this channel; children wait until their parent is.
      case 'created':
        return base
          .where('p.is_active', '=', 1)
          .where('s.id', 'is', null)
          .where((eb) => eb.or([eb('p.parent_id', 'is', null), eb('ps.id', 'is not', null)]))
      case 'updated':
        return base.where('p.is_active', '=', 1).where('s.removed', '=', 0).whereRef('s.data_hash', '<>', 'p.data_hash')
      case 'removed':
        return base.where('p.is_active', '=', 0).where('s.id', 'is not', null).where('s.removed', '=', 0)
    }
  }

  // The three change lists and their counts, built and compiled once (they run on every sync GET).
  const changeQueries = new Map(
    CHANGE_LISTS.map(
      (list) =>
        [
          list,
          {
            rows: prepareQuery(db, 4, (customerId: number, channelId: number, limit: number, offset: number) =>
              changeQuery(list, customerId, channelId)
                .select([
                  'p.id',
                  'p.merchant_reference',
                  'p.data',
                  'p.price_cents',
                  'p.stock',
                  'pp.merchant_reference as parent_reference',
                  's.channel_reference',
                  'ps.channel_reference as parent_channel_reference'
                ])
                .orderBy('p.id')
                .limit(limit)
                .offset(offset)
            ),
            count: prepareQuery(db, 2, (customerId: number, channelId: number) =>
              changeQuery(list, customerId, channelId).select((eb) => eb.fn.countAll<number>().as('n'))
            )
          }
        ] as const
    )
  )

  const syncStateQuery = prepareQuery(db, 2, (channelId: number, customerId: number) =>
    db
      .selectFrom('mp_channels as ch')
      .innerJoin('mp_customers as c', 'c.id', 'ch.customer_id')
      .select(['c.products_version', 'c.change_seq', 'ch.data_seen_seq'])
      .where('ch.id', '=', channelId)
      .where('c.id', '=', customerId)
  )

  /** Invalidates cached product-sync responses of the customer; call inside the write's transaction. */
  async function bumpProductsVersion(trx: Trx, customerId: number): Promise<void> {
    await trx
      .updateTable('mp_customers')
      .set({ products_version: sql`products_version + 1` })
      .where('id', '=', customerId)
      .execute()
  }

  return {
    byMerchantReferences(customerId: number, references: string[], executor: MarketplaceExecutor = db): Promise<ProductRow[]> {
      return selectInChunks(references, (refs) =>
        executor
          .selectFrom('mp_products')
          .selectAll()
          .where('customer_id', '=', customerId)
          .where('merchant_reference', 'in', refs)
          .execute()
      )
    },

    byChannelReferences(channelId: number, references: string[]): Promise<(ProductRow & { channel_reference: string })[]> {
      return selectInChunks(references, (refs) =>
        db
          .selectFrom('mp_product_channel_state as s')
          .innerJoin('mp_products as p', 'p.id', 's.product_id')
          .selectAll('p')
          .select('s.channel_reference')
          .where('s.channel_id', '=', channelId)
          .where('s.channel_reference', 'in', refs)
          .execute()
      )
    },

    /** Which of these products have children (of any state). */
    async hasChildren(productIds: number[], executor: MarketplaceExecutor = db): Promise<Set<number>> {
      const rows = await selectInChunks(productIds, (ids) =>
        executor.selectFrom('mp_products').select('parent_id').distinct().where('parent_id', 'in', ids).execute()
      )
      return new Set(rows.flatMap((row) => (row.parent_id !== null ? [row.parent_id] : [])))
    },

    /** The customer's products version and change sequence, and what this channel has seen of it. */
    async syncState(customerId: number, channelId: number): Promise<{ version: number; changeSeq: number; seenSeq: number }> {
      const row = (await syncStateQuery(channelId, customerId))[0]
      if (!row) throw new Error(`channel ${channelId} of customer ${customerId} does not exist`)
      return { version: Number(row.products_version), changeSeq: Number(row.change_seq), seenSeq: Number(row.data_seen_seq) }
    },

    async findWithParent(customerId: number, reference: string): Promise<(ProductRow & { parent_reference: string | null }) | undefined> {
      return db
        .selectFrom('mp_products as p')
        .leftJoin('mp_products as pp', 'pp.id', 'p.parent_id')
        .selectAll('p')
        .select('pp.merchant_reference as parent_reference')
        .where('p.customer_id', '=', customerId)
        .where('p.merchant_reference', '=', reference)
        .executeTakeFirst()
    },

    transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
      return db.transaction().execute(work)
    },

    /**
     * Next value of the customer's change sequence (locks the customer row until commit); also
     * bumps the products version, which invalidates cached GET /v2/products/data responses.
     */
    async nextSeq(trx: Trx, customerId: number): Promise<number> {
      const row = await trx
        .updateTable('mp_customers')
        .set({ change_seq: sql`change_seq + 1`, products_version: sql`products_version + 1` })
        .where('id', '=', customerId)
        .returning('change_seq')
        .executeTakeFirstOrThrow()
      return Number(row.change_seq)
    },

    async currentSeq(customerId: number): Promise<number> {
      const row = await db.selectFrom('mp_customers').select('change_seq').where('id', '=', customerId).executeTakeFirstOrThrow()
      return Number(row.change_seq)
    },

    /** Records that the channel has seen everything up to `seq` (monotonic; a no-op when unchanged). */
    async markSeen(channelId: number, column: 'data_seen_seq' | 'offer_seen_seq', seq: number): Promise<void> {
      await db
        .updateTable('mp_channels')
        .set({ [column]: seq })
        .where('id', '=', channelId)
        .where(column, '<', seq)
        .execute()
    },

    /** Invalidates cached product-sync responses of the customer; call inside the write's transaction. */
    touch: bumpProductsVersion,

    async seenSeq(trx: Trx, channelId: number, column: 'data_seen_seq' | 'offer_seen_seq'): Promise<number> {
      const row = await trx.selectFrom('mp_channels').select(column).where('id', '=', channelId).executeTakeFirstOrThrow()
      return Number((row as Record<string, unknown>)[column])
    },

    async insertMany(trx: Trx, rows: Insertable<ProductsTable>[]): Promise<Map<string, number>> {
      const ids = new Map<string, number>()
      for (const part of chunks(rows, 200)) {
        const inserted = await trx.insertInto('mp_products').values(part).returning(['id', 'merchant_reference']).execute()
        for (const row of inserted) ids.set(row.merchant_reference, row.id)
      }
      return ids
    },

    async update(trx: Trx, id: number, values: Updateable<ProductsTable>): Promise<void> {
      await trx.updateTable('mp_products').set(values).where('id', '=', id).execute()
    },

    /** Deactivates the product and its children; false when there is no such product. */
    async deactivate(customerId: number, reference: string, now: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const product = await trx
          .selectFrom('mp_products')
          .select('id')
          .where('customer_id', '=', customerId)
          .where('merchant_reference', '=', reference)
          .executeTakeFirst()
        if (!product) return false
        await trx
          .updateTable('mp_products')
          .set({ is_active: 0, updated_at: now })
          .where('customer_id', '=', customerId)
          .where('is_active', '=', 1)
          .where((eb) => eb.or([eb('id', '=', product.id), eb('parent_id', '=', product.id)]))
          .execute()
        await bumpProductsVersion(trx, customerId)
        return true
      })
    },

    async changes(
      list: ChangeList,
      customerId: number,
      channelId: number,
      offset: number,
      limit: number
    ): Promise<{ rows: ChannelProductRow[]; total: number }> {
      const queries = changeQueries.get(list) as {
        rows: (...args: number[]) => Promise<ChannelProductRow[]>
        count: (...args: number[]) => Promise<{ n: number }[]>
      }
      const [rows, count] = await Promise.all([queries.rows(customerId, channelId, limit, offset), queries.count(customerId, channelId)])
      return { rows, total: Number(count[0]?.n ?? 0) }
    },

    /** Acknowledged, still listed products whose price or stock differs from what the channel acknowledged. */
    async offers(customerId: number, channelId: number, offset: number, limit: number) {
      const query = () =>
        db
          .selectFrom('mp_products as p')
          .innerJoin('mp_product_channel_state as s', (j) => j.onRef('s.product_id', '=', 'p.id').on('s.channel_id', '=', channelId))
          .where('p.customer_id', '=', customerId)
          .where('p.is_active', '=', 1)
          .where('s.removed', '=', 0)
          .whereRef('s.offer_hash', '<>', 'p.offer_hash')
      const [rows, count] = await Promise.all([
        query()
          .select(['p.id', 'p.merchant_reference', 's.channel_reference', 'p.price_cents', 'p.stock'])
          .orderBy('p.id')
          .limit(limit)
          .offset(offset)
          .execute(),
        query()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ])
      return { rows, total: Number(count.n) }
    },

    statesByChannelReferences(trx: Trx, channelId: number, references: string[]) {
      return selectInChunks(references, (refs) =>
        trx
          .selectFrom('mp_product_channel_state as s')
          .innerJoin('mp_products as p', 'p.id', 's.product_id')
          .select(['s.id', 's.product_id', 's.channel_reference', 's.removed', 'p.is_active', 'p.merchant_reference'])
          .where('s.channel_id', '=', channelId)
          .where('s.channel_reference', 'in', refs)
          .execute()
      )
    },

    /** MerchantProductReferences of the customer's products with these ids (the Ids of the sync lists). */
    referencesOfIds(trx: Trx, customerId: number, ids: number[]) {
      return selectInChunks(ids, (chunk) =>
        trx
          .selectFrom('mp_products')
          .select(['id', 'merchant_reference'])
          .where('customer_id', '=', customerId)
          .where('id', 'in', chunk)
          .execute()
      )
    },

    statesByProducts(trx: Trx, channelId: number, productIds: number[]) {
      return selectInChunks(productIds, (ids) =>
        trx
          .selectFrom('mp_product_channel_state')
          .select(['product_id', 'channel_reference'])
          .where('channel_id', '=', channelId)
          .where('product_id', 'in', ids)
          .execute()
      )
    },

    async insertStates(
      trx: Trx,
      rows: {
        channel_id: number
        product_id: number
        channel_reference: string
        data_hash: string
        offer_hash: string
        removed: number
        updated_at: string
      }[]
    ): Promise<void> {
      for (const part of chunks(rows, 200)) await trx.insertInto('mp_product_channel_state').values(part).execute()
    },

    /**
     * Marks the products behind these channel references as acknowledged up to `seen`: a
     * product changed after the channel's last GET keeps its old hash, so it is listed again.
     */
    async acknowledgeStates(
      trx: Trx,
      channelId: number,
      references: string[],
      what: { data: boolean; offer: boolean; removed: boolean },
      seen: number,
      now: string
    ): Promise<void> {
      const ofState = sql`p.id = mp_product_channel_state.product_id`
      for (const refs of chunks(references)) {
        const set: Record<string, unknown> = { updated_at: now }
        if (what.data)
          set.data_hash = sql`coalesce((select p.data_hash from mp_products p where ${ofState} and p.data_seq <= ${seen}), data_hash)`
        if (what.offer)
          set.offer_hash = sql`coalesce((select p.offer_hash from mp_products p where ${ofState} and p.offer_seq <= ${seen}), offer_hash)`
        if (what.removed) set.removed = 1
        await trx
          .updateTable('mp_product_channel_state')
          .set(set)
          .where('channel_id', '=', channelId)
          .where('channel_reference', 'in', refs)
          .execute()
      }
    }
  }
}
export type ProductsRepository = ReturnType<typeof createProductsRepository>
