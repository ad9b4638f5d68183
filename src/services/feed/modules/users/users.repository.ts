import type { Insertable } from 'kysely'
import type { FeedDb, FeedUsersTable, UserRow } from '../../db.js'

export function createUsersRepository(db: FeedDb) {
  return {
    async insert(values: Insertable<FeedUsersTable>): Promise<number> {
      const row = await db.insertInto('feed_users').values(values).returning('id').executeTakeFirstOrThrow()
      return row.id
    },
    findByEmailKey(emailKey: string): Promise<UserRow | undefined> {
      return db.selectFrom('feed_users').selectAll().where('email_key', '=', emailKey).executeTakeFirst()
    },
    findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('feed_users').selectAll().where('id', '=', id).executeTakeFirst()
    },
    async emailKeyExists(emailKey: string): Promise<boolean> {
      const row = await db.selectFrom('feed_users').select('id').where('email_key', '=', emailKey).executeTakeFirst()
      return row !== undefined
    },
    async updateStatus(id: number, status: string, updatedAt: string): Promise<boolean> {
      const result = await db.updateTable('feed_users').set({ status, updated_at: updatedAt }).where('id', '=', id).executeTakeFirst()
      return result.numUpdatedRows > 0n
    }
  }
}
export type UsersRepository = ReturnType<typeof createUsersRepository>
