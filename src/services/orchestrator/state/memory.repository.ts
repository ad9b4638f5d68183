import { CompiledQuery, sql, type RawBuilder } from 'kysely'
import { dialectOf } from '../../../core/db/database.js'
import { isUniqueViolation } from '../../../core/db/errors.js'
import type { OrchestratorDb } from './db.js'
import type { MemoryEntry } from './domain.js'
import { COLUMNS, columnsOf, hitOf, hitOfValues, type MemoryHit, PAGE_BY_IDS_SQLITE, versionOf, WRITE_ATTEMPTS } from './memory-rows.js'

/** A conditional write found the row changed by a concurrent writer: try again. */
const LOST_RACE = Symbol('lost race')

/** Whose entries: the project and the tenant of the verified principal. */
export interface MemoryScopeKey {
  projectId: number
  tenantId: string
}

export interface MemoryEntryInput {
  type: string
  source: string
  title: string
  content: string
  summary?: string | null
  tags?: readonly string[]
  status?: string
  priority?: string
  sprintId?: string | null
  sprintNum?: number | null
  lang?: string
  metadata?: Record<string, unknown>
}

export interface MemorySearchFilter {
  /** Words to match (letters and digits only; empty: every entry of the scope matches). */
  terms: readonly string[]
  mode: 'and' | 'or'
  types: readonly string[]
  statuses: readonly string[]
  sprintMin: number | null
}

/** The fields of an entry that ranking and filtering read (what an in-memory term index holds). */
export type IndexedEntry = Pick<
  MemoryEntry,
  'id' | 'revision' | 'title' | 'summary' | 'content' | 'tags' | 'type' | 'status' | 'sprint_num' | 'deleted_at'
>

export type { MemoryHit } from './memory-rows.js'
/**
 * `snapshot` is the scope's newest revision (what cursors carry); `version` names everything the
 * ranked hits depend on — the scope's revision, and on SQLite the count of all memory writes
 * (bm25 weighs words over the whole table) — so equal versions mean an equal answer.
 */
export interface MemorySearchPage {
  snapshot: number
  version: string
  hits: MemoryHit[]
  /** Ranked by the in-memory term index rather than SQL (its order may differ; a cursor names its ranking). */
  ranking?: 'index'
}

/**
 * All SQL of the memory: writes that advance the scope's revision, and the ranked full-text
 * search (FTS5 bm25 on SQLite, ts_rank_cd on PostgreSQL) that returns one page together with the
 * scope's snapshot revision read by the same statement.
 */
export function createMemoryRepository(db: OrchestratorDb, clock: () => Date) {
  const postgres = dialectOf(db) === 'postgres'
  const inScope = (scope: MemoryScopeKey) => sql`project_id = ${scope.projectId} and tenant_id = ${scope.tenantId}`
  const nextRevision = (scope: MemoryScopeKey) =>
    sql<number>`(select coalesce(max(revision), 0) + 1 from orch_memory_entries where ${inScope(scope)})`

  function fields(input: MemoryEntryInput) {
    return {
      type: input.type,
      source: input.source,
      title: input.title,
      content: input.content,
      summary: input.summary ?? null,
      tags: (input.tags ?? []).join(' '),
      status: input.status ?? 'active',
      priority: input.priority ?? 'normal',
      sprint_id: input.sprintId ?? null,
      sprint_num: input.sprintNum ?? null,
      lang: input.lang ?? 'en',
      metadata: JSON.stringify(input.metadata ?? {})
    }
  }

  /** Concurrent writers of one scope may pick the same next revision; the unique index refuses one, which retries. */
  async function withRevisionRetry<T>(write: () => Promise<T | typeof LOST_RACE>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const written = await write()
        if (written !== LOST_RACE) return written
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= WRITE_ATTEMPTS) throw error
      }
      if (attempt >= WRITE_ATTEMPTS) throw new Error(`memory write: the entry changed under ${WRITE_ATTEMPTS} concurrent writes in a row`)
    }
  }

  function filterSql(scope: MemoryScopeKey, filter: MemorySearchFilter): RawBuilder<unknown> {
    const parts: RawBuilder<unknown>[] = [
      sql`e.project_id = ${scope.projectId}`,
      sql`e.tenant_id = ${scope.tenantId}`,
      sql`e.deleted_at is null`
    ]
    if (filter.types.length > 0) parts.push(sql`e.type in (${sql.join(filter.types)})`)
    if (filter.statuses.length > 0) parts.push(sql`e.status in (${sql.join(filter.statuses)})`)
    if (filter.sprintMin !== null) parts.push(sql`e.sprint_num >= ${filter.sprintMin}`)
    return sql.join(parts, sql` and `)
  }

  function versionSql(scope: MemoryScopeKey): RawBuilder<unknown> {
    const writes = postgres
      ? sql`(select coalesce(max(writes), 0) from orch_memory_writes where ${inScope(scope)})`
      : sql`(select version from orch_memory_version where id = 1)`
    return sql`select coalesce(max(revision), 0) as snapshot, ${writes} as writes from orch_memory_entries where ${inScope(scope)}`
  }

  /**
   * Ranking reads only ids and scores of every match; the full rows are joined for the page alone
   * (joining them before the sort made each search carry every match's content through it).
   */
  function hitsSql(scope: MemoryScopeKey, filter: MemorySearchFilter, offset: number, size: number): RawBuilder<unknown> {
    const where = filterSql(scope, filter)
    if (filter.terms.length === 0) {
      const newestFirst = sql`order by e.id desc limit ${size} offset ${offset}`
      return sql`select ${columnsOf('e')}, 0.0 as relevance from orch_memory_entries e where ${where} ${newestFirst}`
    }
    let ranked: RawBuilder<unknown>
    if (postgres) {
      const query = filter.terms.join(filter.mode === 'and' ? ' & ' : ' | ')
      ranked = sql`select e.id as id, ts_rank_cd(e.search, q.query, 32)::float8 as relevance
        from orch_memory_entries e, to_tsquery('simple'::regconfig, ${query}) as q(query)
        where e.search @@ q.query and ${where} order by relevance desc, e.id desc limit ${size} offset ${offset}`
    } else {
      const match = filter.terms.map((t) => `"${t}"`).join(filter.mode === 'and' ? ' AND ' : ' OR ')
      ranked = sql`select e.id as id, -bm25(orch_memory_fts, 8.0, 4.0, 1.0, 4.0) as relevance
        from orch_memory_fts join orch_memory_entries e on e.id = orch_memory_fts.rowid
        where orch_memory_fts match ${match} and ${where} order by relevance desc, e.id desc limit ${size} offset ${offset}`
    }
    return sql`select ${columnsOf('m')}, r.relevance as relevance from (${ranked}) as r join orch_memory_entries m on m.id = r.id`
  }

  /**
   * SQLite: the first `offset + size` matches ranked by the full-text index alone, each joined to
   * its row with whether it passes the scope and filters. Joining every match before ranking read
   * hundreds of rows per search; when all of these pass, they are exactly the top of the filtered
   * ranking (which is a subsequence of this one), so the page is theirs.
   */
  function rankedFirstSql(scope: MemoryScopeKey, filter: MemorySearchFilter, offset: number, size: number): RawBuilder<unknown> {
    const match = filter.terms.map((t) => `"${t}"`).join(filter.mode === 'and' ? ' AND ' : ' OR ')
    const passes = filterSql(scope, filter)
    return sql`with rev as (${versionSql(scope)}),
      top as (select rowid as id, -bm25(orch_memory_fts, 8.0, 4.0, 1.0, 4.0) as relevance from orch_memory_fts
        where orch_memory_fts match ${match} order by relevance desc, rowid desc limit ${offset + size})
      select rev.snapshot as snapshot, rev.writes as writes, top.id as ranked_id, coalesce(${passes}, 0) as passes,
        ${columnsOf('e')}, top.relevance as relevance
      from rev left join top on 1 = 1 left join orch_memory_entries e on e.id = top.id
      order by top.relevance desc, top.id desc`
  }

  /** The page from the index-ranked first matches, or undefined when one of them is outside the scope or filters. */
  async function searchRankedFirst(
    scope: MemoryScopeKey,
    filter: MemorySearchFilter,
    offset: number,
    size: number
  ): Promise<MemorySearchPage | undefined> {
    const { rows } = await sql<Record<string, unknown>>`${rankedFirstSql(scope, filter, offset, size)}`.execute(db)
    const first = rows[0]
    const hits: MemoryHit[] = []
    for (const row of rows) {
      if (row.ranked_id === null || row.ranked_id === undefined) continue
      if (Number(row.passes) !== 1) return undefined
      hits.push(hitOf(row))
    }
    return { snapshot: Number(first?.snapshot ?? 0), version: versionOf(first), hits: hits.slice(offset) }
  }

  return {
    async record(scope: MemoryScopeKey, input: MemoryEntryInput): Promise<MemoryEntry> {
      const now = clock().toISOString()
      return withRevisionRetry(() =>
        db
          .insertInto('orch_memory_entries')
          .values({
            project_id: scope.projectId,
            tenant_id: scope.tenantId,
            ...fields(input),
            source_key: null,
            revision: nextRevision(scope),
            created_at: now,
            updated_at: now,
            deleted_at: null
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow()
      )
    },

    /** Inserts the entry of `sourceKey`, or replaces its fields when the scope already has one (a new revision either way). */
    async upsert(scope: MemoryScopeKey, sourceKey: string, input: MemoryEntryInput): Promise<MemoryEntry> {
      return withRevisionRetry(async () => {
        const now = clock().toISOString()
        const current = await db
          .selectFrom('orch_memory_entries')
          .select(['id', 'revision'])
          .where('project_id', '=', scope.projectId)
          .where('tenant_id', '=', scope.tenantId)
          .where('source_key', '=', sourceKey)
          .executeTakeFirst()
        if (current) {
          // Only the revision read: a concurrent rewrite of the same row makes this one write again with the next revision.
          // Without the check, PostgreSQL re-ran the update on the row the other wrote, keeping the revision it had taken
          // before (two writes, one revision: the term index's catch-up by revision missed the second).
          const updated = await db
            .updateTable('orch_memory_entries')
            .set({ ...fields(input), revision: nextRevision(scope), updated_at: now, deleted_at: null })
            .where('id', '=', current.id)
            .where('revision', '=', current.revision)
            .returning(COLUMNS)
            .executeTakeFirst()
          return updated ?? LOST_RACE
        }
        return db
          .insertInto('orch_memory_entries')
          .values({
            project_id: scope.projectId,
            tenant_id: scope.tenantId,
            ...fields(input),
            source_key: sourceKey,
            revision: nextRevision(scope),
            created_at: now,
            updated_at: now,
            deleted_at: null
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow()
      })
    },

    async get(scope: MemoryScopeKey, id: number): Promise<MemoryEntry | undefined> {
      return db
        .selectFrom('orch_memory_entries')
        .select(COLUMNS)
        .where('id', '=', id)
        .where('project_id', '=', scope.projectId)
        .where('tenant_id', '=', scope.tenantId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()
    },

    /** Up to `size` ranked hits after the first `offset`, and the scope's snapshot revision and version, from one statement. */
    async search(scope: MemoryScopeKey, filter: MemorySearchFilter, offset: number, size: number): Promise<MemorySearchPage> {
      if (!postgres && filter.terms.length > 0) {
        const page = await searchRankedFirst(scope, filter, offset, size)
        if (page) return page
      }
      const byRelevance = sql`order by hits.relevance desc, hits.id desc`
      const rows = await sql<Record<string, unknown>>`with rev as (${versionSql(scope)}), hits as (${hitsSql(scope, filter, offset, size)})
        select rev.snapshot as snapshot, rev.writes as writes, hits.* from rev left join hits on 1 = 1 ${byRelevance}`.execute(db)
      const first = rows.rows[0]
      const hits: MemoryHit[] = []
      for (const row of rows.rows) if (row.id !== null && row.id !== undefined) hits.push(hitOf(row))
      return { snapshot: Number(first?.snapshot ?? 0), version: versionOf(first), hits }
    },

    /** The version `search` would report now (one indexed read: a cached answer is checked with it). */
    async version(scope: MemoryScopeKey): Promise<string> {
      // Read on every kept answer: prepared once per PostgreSQL connection (see core/db/database.ts).
      const rows = await sql<Record<string, unknown>>`/* prepared:memory_version */ ${versionSql(scope)}`.execute(db)
      return versionOf(rows.rows[0])
    },

    /** Up to `limit` entries of the scope written after `afterRevision`, oldest first, with what the term index needs. */
    async changedSince(scope: MemoryScopeKey, afterRevision: number, limit: number): Promise<IndexedEntry[]> {
      const rows = await db
        .selectFrom('orch_memory_entries')
        .select(['id', 'revision', 'title', 'summary', 'content', 'tags', 'type', 'status', 'sprint_num', 'deleted_at'])
        .where('project_id', '=', scope.projectId)
        .where('tenant_id', '=', scope.tenantId)
        .where('revision', '>', afterRevision)
        .orderBy('revision')
        .limit(limit)
        .execute()
      for (const row of rows) {
        row.id = Number(row.id)
        row.revision = Number(row.revision)
        row.sprint_num = row.sprint_num === null ? null : Number(row.sprint_num)
      }
      return rows
    },

    /** The scope's entries with these ids (deleted ones too: the caller checks their revisions), in no order. */
    async getMany(scope: MemoryScopeKey, ids: readonly number[]): Promise<MemoryHit[]> {
      if (ids.length === 0) return []
      if (postgres) {
        const rows = await sql<Record<string, unknown>>`select ${columnsOf('e')} from orch_memory_entries e
          where e.id in (${sql.join(ids)}) and ${inScope(scope)}`.execute(db)
        return rows.rows.map(hitOf)
      }
      // better-sqlite3 spends ~0.4 µs per value handed to JavaScript (~7 µs per 20-column row); one
      // JSON text of all rows is ~5× cheaper to read. One fixed text (ids as a JSON array), so the
      // statement is prepared once and no query is built per search.
      const { rows } = await db.executeQuery<{ page: string | null }>(
        CompiledQuery.raw(PAGE_BY_IDS_SQLITE, [JSON.stringify(ids), scope.projectId, scope.tenantId])
      )
      return (JSON.parse(rows[0]?.page ?? '[]') as unknown[][]).map(hitOfValues)
    },

    /** The newest entries of one type and status, newest sprint first (for views such as the debt list). */
    listByType(scope: MemoryScopeKey, type: string, statuses: readonly string[], limit: number): Promise<MemoryEntry[]> {
      return db
        .selectFrom('orch_memory_entries')
        .select(COLUMNS)
        .where('project_id', '=', scope.projectId)
        .where('tenant_id', '=', scope.tenantId)
        .where('deleted_at', 'is', null)
        .where('type', '=', type)
        .where('status', 'in', [...statuses])
        .orderBy('sprint_num', 'desc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute()
    }
  }
}
export type MemoryRepository = ReturnType<typeof createMemoryRepository>
