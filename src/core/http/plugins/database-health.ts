import { sql, type Kysely } from 'kysely'

/** The health check every service with a database runs: one round trip. */
export function databaseHealthCheck(db: Kysely<any>): () => Promise<void> {
  return async () => {
    await sql`select 1`.execute(db)
  }
}
