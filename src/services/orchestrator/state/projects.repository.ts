import path from 'node:path'
import { isUniqueViolation } from '../../../core/db/errors.js'
import type { OrchestratorDb } from './db.js'

export function createProjectsRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    /** The id of the project at this root, registering it on first use (safe under concurrent callers). */
    async ensure(root: string): Promise<number> {
      const key = path.resolve(root)
      const existing = await db.selectFrom('orch_projects').select('id').where('root', '=', key).executeTakeFirst()
      if (existing) return existing.id
      try {
        const row = await db
          .insertInto('orch_projects')
          .values({ root: key, created_at: clock().toISOString() })
          .returning('id')
          .executeTakeFirstOrThrow()
        return row.id
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        const row = await db.selectFrom('orch_projects').select('id').where('root', '=', key).executeTakeFirstOrThrow()
        return row.id
      }
    }
  }
}
export type ProjectsRepository = ReturnType<typeof createProjectsRepository>
