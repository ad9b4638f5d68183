import type { Insertable, Updateable } from 'kysely'
import { prepareQuery } from '../../../../core/db/prepared.js'
import type { TripsDb, UserRow, UsersTable } from '../../db.js'

export function createUsersRepository(db: TripsDb) {
  const byId = prepareQuery(db, 1, (id: number) => db.selectFrom('trips_users').selectAll().where('id', '=', id))
  const byEmailKey = prepareQuery(db, 1, (key: string) => db.selectFrom('trips_users').selectAll().where('email_key', '=', key))
  return {
    async findById(id: number): Promise<UserRow | undefined> {
      return (await byId(id))[0]
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      return (await byEmailKey(email.toLowerCase()))[0]
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
