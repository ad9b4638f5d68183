import { sql, type Kysely, type Migration } from 'kysely'
import { dialectOf } from '../../../core/db/database.js'

/**
 * PostgreSQL's counterpart of SQLite's write counter (0009): one counter per memory scope, raised
 * by triggers in the writing transaction for every row inserted, updated or deleted — also by hand,
 * without a new revision — and for every scope on a TRUNCATE. The scope's version then changes
 * with every write, so a search serves its kept renderings without reading their rows.
 *
 * Per scope, not one shared row: writers of one scope already wait for each other on the unique
 * revision they take (0004), writers of different scopes never wait for each other here.
 */
export const memoryScopeWritesMigration: Migration = {
  async up(db: Kysely<any>) {
    if (dialectOf(db) !== 'postgres') return
    await sql`create table orch_memory_writes (
      project_id integer not null, tenant_id text not null, writes bigint not null, primary key (project_id, tenant_id)
    )`.execute(db)
    await sql`create function orch_memory_count_write() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          update orch_memory_writes set writes = writes + 1;
          return null;
        end if;
        if tg_op in ('UPDATE', 'DELETE') then
          insert into orch_memory_writes as w (project_id, tenant_id, writes) values (old.project_id, old.tenant_id, 1)
            on conflict (project_id, tenant_id) do update set writes = w.writes + 1;
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and (new.project_id, new.tenant_id) is distinct from (old.project_id, old.tenant_id)) then
          insert into orch_memory_writes as w (project_id, tenant_id, writes) values (new.project_id, new.tenant_id, 1)
            on conflict (project_id, tenant_id) do update set writes = w.writes + 1;
        end if;
        return null;
      end
    $$`.execute(db)
    await sql`create trigger orch_memory_count_writes after insert or update or delete on orch_memory_entries
      for each row execute function orch_memory_count_write()`.execute(db)
    await sql`create trigger orch_memory_count_truncate after truncate on orch_memory_entries
      for each statement execute function orch_memory_count_write()`.execute(db)
  }
}
