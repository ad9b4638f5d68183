import type { Generated, Kysely, Selectable } from 'kysely'

export interface FeedUsersTable {
  id: Generated<number>
  email: string
  /** Lower-cased e-mail: unique, used for lookups. */
  email_key: string
  password_hash: string
  name: string
  status: string
  created_at: string
  updated_at: string
}

export interface FeedImagesTable {
  id: Generated<number>
  uploader_id: number
  content_type: string
  /** File extension of the public path: png | jpg. */
  ext: string
  size: number
  /** Hex SHA-256 of the bytes: the strong ETag. */
  sha256: string
  bytes: Buffer
  created_at: string
}

export interface FeedPostsTable {
  id: Generated<number>
  title: string
  content: string
  image_id: number
  creator_id: number
  created_at: string
  updated_at: string
}

export interface FeedTables {
  feed_users: FeedUsersTable
  feed_images: FeedImagesTable
  feed_posts: FeedPostsTable
}

export type FeedDb = Kysely<FeedTables>
export type UserRow = Selectable<FeedUsersTable>
export type ImageRow = Selectable<FeedImagesTable>
export type PostRow = Selectable<FeedPostsTable>
