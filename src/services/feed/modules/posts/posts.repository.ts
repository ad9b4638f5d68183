import type { Insertable, Kysely, Updateable } from 'kysely'
import type { Dialect } from '../../../../core/db/database.js'
import { prepareQuery } from '../../../../core/db/prepared.js'
import type { FeedDb, FeedPostsTable, FeedTables, PostRow } from '../../db.js'

/** A post with what its rendering needs: the creator's name and the image's extension. */
export interface PostView {
  id: number
  title: string
  content: string
  image_id: number
  image_ext: string
  creator_id: number
  creator_name: string
  created_at: string
  updated_at: string
}

function viewQuery(db: Kysely<FeedTables>) {
  return db.selectFrom('feed_posts as p')
    .innerJoin('feed_users as u', 'u.id', 'p.creator_id')
    .innerJoin('feed_images as i', 'i.id', 'p.image_id')
    .select([
      'p.id', 'p.title', 'p.content', 'p.image_id', 'i.ext as image_ext', 'p.creator_id', 'u.name as creator_name',
      'p.created_at', 'p.updated_at'
    ])
}

export function createPostsRepository(db: FeedDb, dialect: Dialect) {
  // The hot reads (every list and get request): built and compiled once.
  // One round trip for a page and the total count.
  const pageQuery = prepareQuery(db, 2, (limit: number, offset: number) =>
    viewQuery(db)
      .select((eb) => eb.selectFrom('feed_posts').select((c) => c.fn.countAll<number>().as('n')).as('total'))
      .orderBy('p.id', 'desc').limit(limit).offset(offset))
  const countQuery = prepareQuery(db, 0, () => db.selectFrom('feed_posts').select((eb) => eb.fn.countAll<number>().as('n')))
  const viewById = prepareQuery(db, 1, (id: number) => viewQuery(db).where('p.id', '=', id))
  return {
    /** Runs `work` in one transaction (serialised on SQLite's single connection). */
    transaction<T>(work: (trx: Kysely<FeedTables>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work)
    },
    /** Newest first (ids only grow, so id order is creation order). */
    /** A page (newest first) with the total number of posts. */
    async page(offset: number, limit: number): Promise<{ rows: PostView[]; total: number }> {
      const rows = await pageQuery(limit, offset)
      // Past the last page there is no row to carry the total.
      const total = rows.length > 0 ? Number(rows[0]?.total) : await this.count()
      return { rows, total }
    },
    async count(): Promise<number> {
      const [row] = await countQuery()
      return Number(row?.n ?? 0)
    },
    async findView(id: number, trx?: Kysely<FeedTables>): Promise<PostView | undefined> {
      if (trx) return viewQuery(trx).where('p.id', '=', id).executeTakeFirst()
      return (await viewById(id))[0]
    },
    /** The post row, locked until the transaction ends on PostgreSQL (SQLite transactions are serial anyway). */
    findForUpdate(trx: Kysely<FeedTables>, id: number): Promise<PostRow | undefined> {
      const query = trx.selectFrom('feed_posts').selectAll().where('id', '=', id)
      return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst()
    },
    async userExists(trx: Kysely<FeedTables>, id: number): Promise<boolean> {
      return (await trx.selectFrom('feed_users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
    },
    async insert(trx: Kysely<FeedTables>, values: Insertable<FeedPostsTable>): Promise<number> {
      const row = await trx.insertInto('feed_posts').values(values).returning('id').executeTakeFirstOrThrow()
      return row.id
    },
    async update(trx: Kysely<FeedTables>, id: number, values: Updateable<FeedPostsTable>): Promise<boolean> {
      const result = await trx.updateTable('feed_posts').set(values).where('id', '=', id).executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async delete(trx: Kysely<FeedTables>, id: number): Promise<boolean> {
      const result = await trx.deleteFrom('feed_posts').where('id', '=', id).executeTakeFirst()
      return result.numDeletedRows > 0n
    }
  }
}
export type PostsRepository = ReturnType<typeof createPostsRepository>
