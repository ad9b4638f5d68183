import type { CheckCommand } from '../engine/types.js'
import type { OrchestratorDb } from './db.js'
import { toCoverage, type Coverage } from './domain.js'

export interface CoverageRecord {
  sprintId: string
  projectId: number
  /** Percent, or null when the command printed no recognisable percentage. */
  coverage: number | null
  command: CheckCommand
  exitCode: number | null
  outputTail: string
}

export function createCoverageRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    /** Stores the sprint's measurement; measuring a sprint again replaces the earlier value. */
    async record(entry: CoverageRecord): Promise<Coverage> {
      const row = {
        project_id: entry.projectId,
        // Hundredths of a percent, so values compare exactly.
        coverage_centi: entry.coverage === null ? null : Math.round(entry.coverage * 100),
        command: JSON.stringify(entry.command),
        exit_code: entry.exitCode,
        output_tail: entry.outputTail,
        recorded_at: clock().toISOString()
      }
      const stored = await db
        .insertInto('orch_coverage')
        .values({ sprint_id: entry.sprintId, ...row })
        .onConflict((oc) => oc.column('sprint_id').doUpdateSet(row))
        .returningAll()
        .executeTakeFirstOrThrow()
      return toCoverage(stored)
    },

    async listForProject(projectId: number): Promise<Coverage[]> {
      return (await db.selectFrom('orch_coverage').selectAll().where('project_id', '=', projectId).execute()).map(toCoverage)
    }
  }
}
export type CoverageRepository = ReturnType<typeof createCoverageRepository>
