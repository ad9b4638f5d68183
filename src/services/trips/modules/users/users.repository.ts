import type { Insertable, Updateable } from 'kysely'
import type { TripsDb, UserRow, UsersTable } from '../../db.js'

export function createUsersRepository(db: TripsDb) {
  return {
    findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('trips_users').selectAll().where('id', '=', id).executeTakeFirst()
    },
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('trips_users').selectAll().where('email_key', '=', email.toLowerCase()).executeTakeFirst()
    },
    insert(values: Insertable<UsersTable>): Promise<UserRow> {
      return db.insertInto('trips_users').values(values).returningAll().executeTakeFirstOrThrow()
    },
    update(id: number, values: Updateable<UsersTable>): Promise<UserRow | undefined> {
      return db.updateTable('trips_users').set(values).where('id', '=', id).returningAll().executeTakeFirst()
    },
    /** Deletes the user; their tour links go with them (ON DELETE CASCADE). */
    async delete(id: number): Promise<boolean> {
      const result = await db.deleteFrom('trips_users').where('id', '=', id).executeTakeFirst()
      return result.numDeletedRows > 0n
    }
  }
}
export type UsersRepository = ReturnType<typeof createUsersRepository>
