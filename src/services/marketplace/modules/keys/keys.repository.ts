import { sql, type SqlBool } from 'kysely'
import { prepareQuery } from '../../../../core/db/prepared.js'
import type { ApiKeyRow, MarketplaceDb, Role } from '../../db.js'

export interface PrincipalRow {
  key_id: number
  customer_id: number
  customer_name: string
  role: Role
  channel_id: number | null
  channel_name: string | null
  revoked_at: string | null
  orders_version: number
  products_version: number
  change_seq: number
  data_seen_seq: number | null
}

export interface KeyListRow extends ApiKeyRow {
  customer_name: string
  channel_name: string | null
}

export function createKeysRepository(db: MarketplaceDb) {
  // Runs on every request: built and compiled once. It also reads the customer's version
  // counters (same row, no extra cost), so a cached list read needs no query of its own.
  const principalQuery = prepareQuery(db, 1, (keyHash: string) =>
    db
      .selectFrom('mp_api_keys as k')
      .innerJoin('mp_customers as c', 'c.id', 'k.customer_id')
      .leftJoin('mp_channels as ch', 'ch.id', 'k.channel_id')
      .select([
        'k.id as key_id',
        'k.customer_id',
        'c.name as customer_name',
        'k.role',
        'k.channel_id',
        'ch.name as channel_name',
        'k.revoked_at',
        'c.orders_version',
        'c.products_version',
        'c.change_seq',
        'ch.data_seen_seq'
      ])
      .where('k.key_hash', '=', keyHash)
  )

  return {
    /** The key with this hash, with its customer and channel (one indexed lookup). */
    async findPrincipal(keyHash: string): Promise<PrincipalRow | undefined> {
      return (await principalQuery(keyHash))[0]
    },

    /** Stores a key (hash only), creating its customer and channel on first use; atomic. */
    insertKey(input: { customer: string; role: Role; channel: string | null; keyHash: string; prefix: string; now: string }) {
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto('mp_customers')
          .values({ name: input.customer, change_seq: 0, created_at: input.now })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute()
        const customer = await trx
          .selectFrom('mp_customers')
          .select(['id', 'name'])
          .where('name', '=', input.customer)
          .executeTakeFirstOrThrow()
        let channelId: number | null = null
        if (input.channel !== null) {
          await trx
            .insertInto('mp_channels')
            .values({ customer_id: customer.id, name: input.channel, data_seen_seq: 0, offer_seen_seq: 0, created_at: input.now })
            .onConflict((oc) => oc.columns(['customer_id', 'name']).doNothing())
            .execute()
          const channel = await trx
            .selectFrom('mp_channels')
            .select('id')
            .where('customer_id', '=', customer.id)
            .where('name', '=', input.channel)
            .executeTakeFirstOrThrow()
          channelId = channel.id
        }
        const key = await trx
          .insertInto('mp_api_keys')
          .values({
            customer_id: customer.id,
            role: input.role,
            channel_id: channelId,
            key_hash: input.keyHash,
            prefix: input.prefix,
            created_at: input.now,
            revoked_at: null
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        return { id: key.id, customerId: customer.id, channelId }
      })
    },

    list(customer?: string): Promise<KeyListRow[]> {
      let query = db
        .selectFrom('mp_api_keys as k')
        .innerJoin('mp_customers as c', 'c.id', 'k.customer_id')
        .leftJoin('mp_channels as ch', 'ch.id', 'k.channel_id')
        .selectAll('k')
        .select(['c.name as customer_name', 'ch.name as channel_name'])
      if (customer !== undefined) query = query.where('c.name', '=', customer)
      return query.orderBy('k.id').execute()
    },

    /** Keys whose id equals `idOrPrefix` or whose prefix starts with it. */
    findByIdOrPrefix(idOrPrefix: string): Promise<ApiKeyRow[]> {
      const startsWith = sql<SqlBool>`substr(prefix, 1, ${idOrPrefix.length}) = ${idOrPrefix}`
      const query = db
        .selectFrom('mp_api_keys')
        .selectAll()
        .where((eb) => (/^\d{1,9}$/.test(idOrPrefix) ? eb.or([eb('id', '=', Number(idOrPrefix)), startsWith]) : startsWith))
      return query.orderBy('id').execute()
    },

    async revoke(id: number, now: string): Promise<void> {
      await db.updateTable('mp_api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute()
    }
  }
}
export type KeysRepository = ReturnType<typeof createKeysRepository>
