import { sql, type Kysely, type Migration } from 'kysely'
import { dialectOf } from '../../../core/db/database.js'

/**
 * A counter of every write to the memory entries, on SQLite only, kept by triggers in the writing
 * transaction (so a write by another process — the CLI, a detached job — counts too). FTS5's bm25
 * weighs a word by how many entries of the whole table hold it, so a write in one scope changes
 * the relevance of every other scope's hits: a cached search is current only while this counter
 * is. PostgreSQL's ts_rank_cd reads the entry alone, so no shared row is made there to serialise
 * every writer; its counter is per scope (0021).
 */
export const memoryVersionMigration: Migration = {
  async up(db: Kysely<any>) {
    if (dialectOf(db) === 'postgres') return
    await sql`create table orch_memory_version (id integer primary key check (id = 1), version integer not null)`.execute(db)
    await sql`insert into orch_memory_version (id, version) values (1, 0)`.execute(db)
    for (const event of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`orch_memory_version_${event}`)} after ${sql.raw(event)} on orch_memory_entries begin
        update orch_memory_version set version = version + 1 where id = 1;
      end`.execute(db)
    }
  }
}
