/**
 * Seeds the memory of one project with `count` entries through the repository (the same writes
 * the engine and the CLI make), for the memory search benchmark. Content is deterministic: 30
 * words per entry from a 5,000-word vocabulary, so a word occurs in about 300 entries and the
 * benchmark query (two words, OR) matches about 600 of 50,000.
 */
import { sql } from 'kysely'
import { openDatabase } from '../src/core/db/database.js'
import { migrateToLatest } from '../src/core/db/migrations.js'
import { allMigrationSets } from '../src/cli/registry.js'
import type { OrchestratorDb } from '../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories } from '../src/services/orchestrator/state/repositories.js'

export const MEMORY_ENTRIES = 50_000
export const MEMORY_QUERY = 'w1234 w4321'
const VOCABULARY = 5000
const WORDS_PER_ENTRY = 30
const TYPES = ['memory', 'decision', 'sprint', 'debt', 'error']

function word(seed: number): string {
  return `w${(Math.imul(seed, 2654435761) >>> 0) % VOCABULARY}`
}

/** `count` different two-word queries like MEMORY_QUERY (each matching about 600 entries), for reads that no kept answer serves. */
export function distinctMemoryQueries(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `w${(i * 7 + 1) % VOCABULARY} w${(i * 13 + 2500) % VOCABULARY}`).filter(
    (query) => query !== MEMORY_QUERY
  )
}

export async function seedMemory(options: {
  sqlitePath?: string
  databaseUrl?: string
  projectRoot: string
  count?: number
}): Promise<{ projectId: number; matching: number }> {
  const database = await openDatabase({ url: options.databaseUrl, sqlitePath: options.sqlitePath, poolSize: 2 })
  try {
    await migrateToLatest(database.db, allMigrationSets())
    const repos = createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date())
    const projectId = await repos.projects.ensure(options.projectRoot)
    const scope = { projectId, tenantId: 'local' }
    const count = options.count ?? MEMORY_ENTRIES
    const wanted = new Set(MEMORY_QUERY.split(' '))
    let matching = 0
    for (let i = 0; i < count; i++) {
      const words = Array.from({ length: WORDS_PER_ENTRY }, (_, k) => word(i * WORDS_PER_ENTRY + k + 1))
      if (words.some((w) => wanted.has(w))) matching++
      await repos.memory.record(scope, {
        type: TYPES[i % TYPES.length]!,
        source: 'system',
        title: `entry ${i} ${words.slice(0, 3).join(' ')}`,
        content: `${words.join(' ')}\n${'context line\n'.repeat(i % 4)}`,
        sprintNum: Math.floor(i / 100),
        tags: [words[0]!]
      })
    }
    // A database that has taken 50,000 rows has been analysed by autovacuum long since; without
    // statistics PostgreSQL scans the whole scope instead of the GIN index (~170 ms a query).
    if (database.dialect === 'postgres') await sql`analyze orch_memory_entries`.execute(database.db)
    return { projectId, matching }
  } finally {
    await database.close()
  }
}
