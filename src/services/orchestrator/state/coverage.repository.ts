import type { CoverageRow, OrchestratorDb } from './db.js'

export interface CoverageRecord {
  sprintId: string
  projectId: number
  /** Percent, or null when the command printed no recognisable percentage. */
  coverage: number | null
  command: string
  exitCode: number | null
  outputTail: string
}

export function createCoverageRepository(db: OrchestratorDb, clock: () => Date) {
  return {
    /** Stores the sprint's measurement; measuring a sprint again replaces the earlier value. */
    async record(entry: CoverageRecord): Promise<CoverageRow> {
      const row = {
        project_id: entry.projectId,
        coverage_centi: entry.coverage === null ? null : Math.round(entry.coverage * 100),
        command: entry.command,
        exit_code: entry.exitCode,
        output_tail: entry.outputTail,
        recorded_at: clock().toISOString()
      }
      return db
        .insertInto('orch_coverage')
        .values({ sprint_id: entry.sprintId, ...row })
        .onConflict((oc) => oc.column('sprint_id').doUpdateSet(row))
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    listForProject(projectId: number): Promise<CoverageRow[]> {
      return db.selectFrom('orch_coverage').selectAll().where('project_id', '=', projectId).execute()
    }
  }
}
export type CoverageRepository = ReturnType<typeof createCoverageRepository>
