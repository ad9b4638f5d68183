import type { Insertable, Kysely } from 'kysely'
import { isForeignKeyViolation } from '../../../../core/db/errors.js'
import { compileQuery } from '../../../../core/db/prepared.js'
import type { FeedDb, FeedImagesTable, FeedTables, ImageRow } from '../../db.js'

export type ImageMeta = Omit<ImageRow, 'bytes'>

export function createImagesRepository(db: FeedDb) {
  // Run inside the post transactions: compiled once.
  const metaById = compileQuery(db, 1, (id: number) =>
    db.selectFrom('feed_images').select(['id', 'uploader_id', 'content_type', 'ext', 'size', 'sha256', 'created_at']).where('id', '=', id)
  )
  return {
    async insert(trx: Kysely<FeedTables>, values: Insertable<FeedImagesTable>): Promise<number> {
      const row = await trx.insertInto('feed_images').values(values).returning('id').executeTakeFirstOrThrow()
      return row.id
    },
    async findMeta(trx: Kysely<FeedTables>, id: number): Promise<ImageMeta | undefined> {
      return (await metaById(trx, id)).rows[0]
    },
    findWithBytes(id: number): Promise<ImageRow | undefined> {
      return db.selectFrom('feed_images').selectAll().where('id', '=', id).executeTakeFirst()
    },
    /**
     * Removes the image unless a post still shows it. Run after the post change committed: a
     * post created meanwhile with this image makes the foreign key refuse, which is the answer.
     */
    async deleteIfUnused(id: number): Promise<boolean> {
      try {
        const result = await db
          .deleteFrom('feed_images')
          .where('id', '=', id)
          .where((eb) => eb.not(eb.exists(eb.selectFrom('feed_posts').select('feed_posts.id').where('feed_posts.image_id', '=', id))))
          .executeTakeFirst()
        return result.numDeletedRows > 0n
      } catch (error) {
        if (isForeignKeyViolation(error)) return false
        throw error
      }
    }
  }
}
export type ImagesRepository = ReturnType<typeof createImagesRepository>
