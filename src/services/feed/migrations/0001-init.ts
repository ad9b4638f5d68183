import type { Kysely, Migration } from 'kysely'
import { dialectOf } from '../../../core/db/database.js'
import { addIdColumn } from '../../../core/db/schema-helpers.js'

export const initMigration: Migration = {
  async up(db: Kysely<any>) {
    const binary = dialectOf(db) === 'postgres' ? 'bytea' : 'blob'

    await addIdColumn(db, db.schema.createTable('feed_users'))
      .addColumn('email', 'text', (c) => c.notNull())
      // Lower-cased e-mail: sign-up uniqueness and login lookups are case-insensitive.
      .addColumn('email_key', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()

    // Image bytes live in the database so every instance behind a load balancer serves them.
    await addIdColumn(db, db.schema.createTable('feed_images'))
      .addColumn('uploader_id', 'integer', (c) => c.notNull().references('feed_users.id'))
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('ext', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('bytes', binary, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()

    await addIdColumn(db, db.schema.createTable('feed_posts'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      // No cascade: an image is removed only once no post refers to it any more.
      .addColumn('image_id', 'integer', (c) => c.notNull().references('feed_images.id'))
      .addColumn('creator_id', 'integer', (c) => c.notNull().references('feed_users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('feed_posts_creator').on('feed_posts').column('creator_id').execute()
    await db.schema.createIndex('feed_posts_image').on('feed_posts').column('image_id').execute()
    await db.schema.createIndex('feed_images_uploader').on('feed_images').column('uploader_id').execute()
  }
}
