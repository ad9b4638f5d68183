import { sql, type Kysely, type Migration } from 'kysely'
import { dialectOf } from '../../../core/db/database.js'
import { addIdColumn } from '../../../core/db/schema-helpers.js'

/**
 * Memory entries (sprint summaries, decisions, NO_GO reasons, debt, notes) with full-text search:
 * an external-content FTS5 table kept by triggers on SQLite, a stored tsvector with a GIN index on
 * PostgreSQL. Both use a language-neutral tokenizer (unicode61 / 'simple') so a query matches the
 * same words on either database.
 *
 * `revision` is dense per (project, tenant) scope and unique there: the highest revision of a scope
 * is the snapshot that cursors carry, so any write makes an older cursor detectably stale.
 */
export const memoryMigration: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db, db.schema.createTable('orch_memory_entries'))
      .addColumn('project_id', 'integer', (c) => c.notNull().references('orch_projects.id'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('summary', 'text')
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('priority', 'text', (c) => c.notNull())
      .addColumn('sprint_id', 'text')
      .addColumn('sprint_num', 'integer')
      .addColumn('lang', 'text', (c) => c.notNull())
      .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
      // Set by writers that re-record the same fact (a task's debt, an imported note's path): one row per key.
      .addColumn('source_key', 'text')
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('deleted_at', 'text')
      .execute()
    await db.schema
      .createIndex('orch_memory_scope_revision')
      .on('orch_memory_entries')
      .columns(['project_id', 'tenant_id', 'revision'])
      .unique()
      .execute()
    await db.schema
      .createIndex('orch_memory_scope_key')
      .on('orch_memory_entries')
      .columns(['project_id', 'tenant_id', 'source_key'])
      .unique()
      .execute()
    await db.schema.createIndex('orch_memory_scope_id').on('orch_memory_entries').columns(['project_id', 'tenant_id', 'id']).execute()
    await db.schema
      .createIndex('orch_memory_scope_type')
      .on('orch_memory_entries')
      .columns(['project_id', 'tenant_id', 'type', 'status'])
      .execute()

    if (dialectOf(db) === 'postgres') {
      await sql`alter table orch_memory_entries add column search tsvector generated always as (
        setweight(to_tsvector('simple'::regconfig, title), 'A') ||
        setweight(to_tsvector('simple'::regconfig, coalesce(summary, '') || ' ' || tags), 'B') ||
        setweight(to_tsvector('simple'::regconfig, content), 'C')) stored`.execute(db)
      await sql`create index orch_memory_search on orch_memory_entries using gin (search)`.execute(db)
      return
    }
    await sql`create virtual table orch_memory_fts using fts5(title, summary, content, tags,
      content='orch_memory_entries', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(db)
    // The FTS rows mirror the entry rows; 'delete' must be given exactly the values that were indexed.
    const insertRow = sql`insert into orch_memory_fts(rowid, title, summary, content, tags)`
    const insertCommand = sql`insert into orch_memory_fts(orch_memory_fts, rowid, title, summary, content, tags)`
    await sql`create trigger orch_memory_fts_insert after insert on orch_memory_entries begin
      ${insertRow} values (new.id, new.title, coalesce(new.summary, ''), new.content, new.tags);
    end`.execute(db)
    await sql`create trigger orch_memory_fts_delete after delete on orch_memory_entries begin
      ${insertCommand} values ('delete', old.id, old.title, coalesce(old.summary, ''), old.content, old.tags);
    end`.execute(db)
    await sql`create trigger orch_memory_fts_update after update on orch_memory_entries begin
      ${insertCommand} values ('delete', old.id, old.title, coalesce(old.summary, ''), old.content, old.tags);
      ${insertRow} values (new.id, new.title, coalesce(new.summary, ''), new.content, new.tags);
    end`.execute(db)
  }
}
