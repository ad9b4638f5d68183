import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../../../../core/db/database.js'
import { compileQuery, prepareQuery } from '../../../../core/db/prepared.js'
import type { FeedDb, FeedPostsTable, FeedTables, PostRow } from '../../db.js'

/** A new post's columns. */
export type NewPost = Omit<FeedPostsTable, 'id'>

/** What an update changes. */
export type PostChanges = Pick<NewPost, 'title' | 'content' | 'image_id' | 'updated_at'>

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
  return db
    .selectFrom('feed_posts as p')
    .innerJoin('feed_users as u', 'u.id', 'p.creator_id')
    .innerJoin('feed_images as i', 'i.id', 'p.image_id')
    .select([
      'p.id',
      'p.title',
      'p.content',
      'p.image_id',
      'i.ext as image_ext',
      'p.creator_id',
      'u.name as creator_name',
      'p.created_at',
      'p.updated_at'
    ])
}

export function createPostsRepository(db: FeedDb, dialect: Dialect) {
  // The hot reads (every list and get request): built and compiled once. One round trip for a
  // page and the total count. The page size is written into the SQL as a literal, one statement
  // per size (1–100, validated by the route): SQLite runs this join about 3× slower with a bound
  // LIMIT than with a constant one (28 µs instead of 9 µs for 2 rows, measured), the offset
  // stays a parameter.
  const pageQueries = new Map<number, (offset: number) => Promise<(PostView & { total: number | null })[]>>()
  function pageQuery(limit: number) {
    let query = pageQueries.get(limit)
    if (!query) {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`page size must be a positive integer, not ${limit}`)
      query = prepareQuery(db, 1, (offset: number) =>
        viewQuery(db)
          .select((eb) =>
            eb
              .selectFrom('feed_posts')
              .select((c) => c.fn.countAll<number>().as('n'))
              .as('total')
          )
          .orderBy('p.id', 'desc')
          .limit(sql.lit(limit))
          .offset(offset)
      )
      pageQueries.set(limit, query)
    }
    return query
  }
  const countQuery = prepareQuery(db, 0, () => db.selectFrom('feed_posts').select((eb) => eb.fn.countAll<number>().as('n')))
  const viewById = prepareQuery(db, 1, (id: number) => viewQuery(db).where('p.id', '=', id))

  // The write path's queries, compiled once and run inside the caller's transaction.
  const viewInTrx = compileQuery(db, 1, (id: number) => viewQuery(db).where('p.id', '=', id))
  const lockQuery = db.selectFrom('feed_posts').selectAll()
  const rowForUpdate = compileQuery(db, 1, (id: number) => {
    const query = lockQuery.where('id', '=', id)
    return dialect === 'postgres' ? query.forUpdate() : query
  })
  const userById = compileQuery(db, 1, (id: number) => db.selectFrom('feed_users').select('id').where('id', '=', id))
  const insertPost = compileQuery(
    db,
    6,
    (title: string, content: string, imageId: number, creatorId: number, createdAt: string, updatedAt: string) =>
      db
        .insertInto('feed_posts')
        .values({ title, content, image_id: imageId, creator_id: creatorId, created_at: createdAt, updated_at: updatedAt })
        .returning('id')
  )
  const updatePost = compileQuery(db, 5, (id: number, title: string, content: string, imageId: number, updatedAt: string) =>
    db.updateTable('feed_posts').set({ title, content, image_id: imageId, updated_at: updatedAt }).where('id', '=', id)
  )
  const deletePost = compileQuery(db, 1, (id: number) => db.deleteFrom('feed_posts').where('id', '=', id))
  return {
    /** Runs `work` in one transaction (serialised on SQLite's single connection). */
    transaction<T>(work: (trx: Kysely<FeedTables>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work)
    },
    /** A page, newest first (ids only grow, so id order is creation order), with the total number of posts. */
    async page(offset: number, limit: number): Promise<{ rows: PostView[]; total: number }> {
      const rows = await pageQuery(limit)(offset)
      // Past the last page there is no row to carry the total.
      const total = rows.length > 0 ? Number(rows[0]?.total) : await this.count()
      return { rows, total }
    },
    async count(): Promise<number> {
      const [row] = await countQuery()
      return Number(row?.n ?? 0)
    },
    async findView(id: number, trx?: Kysely<FeedTables>): Promise<PostView | undefined> {
      if (trx) return (await viewInTrx(trx, id)).rows[0]
      return (await viewById(id))[0]
    },
    /** The post row, locked until the transaction ends on PostgreSQL (SQLite transactions are serial anyway). */
    async findForUpdate(trx: Kysely<FeedTables>, id: number): Promise<PostRow | undefined> {
      return (await rowForUpdate(trx, id)).rows[0]
    },
    async userExists(trx: Kysely<FeedTables>, id: number): Promise<boolean> {
      return (await userById(trx, id)).rows.length > 0
    },
    async insert(trx: Kysely<FeedTables>, values: NewPost): Promise<number> {
      const { rows } = await insertPost(
        trx,
        values.title,
        values.content,
        values.image_id,
        values.creator_id,
        values.created_at,
        values.updated_at
      )
      const row = rows[0]
      if (!row) throw new Error('insert into feed_posts returned no id')
      return row.id
    },
    async update(trx: Kysely<FeedTables>, id: number, values: PostChanges): Promise<boolean> {
      const result = await updatePost(trx, id, values.title, values.content, values.image_id, values.updated_at)
      return (result.numAffectedRows ?? 0n) > 0n
    },
    async delete(trx: Kysely<FeedTables>, id: number): Promise<boolean> {
      const result = await deletePost(trx, id)
      return (result.numAffectedRows ?? 0n) > 0n
    }
  }
}
export type PostsRepository = ReturnType<typeof createPostsRepository>
