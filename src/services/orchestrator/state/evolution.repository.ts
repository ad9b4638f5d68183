/**
 * What the evolution projections read from recorded runs: every finished task with its agent,
 * its sprint's directives digest (the prompt version), and the models its attempts used.
 */
import type { Kysely } from 'kysely'
import type { AttemptsTable, SprintsTable, TasksTable } from './db.js'

interface EvolutionTables {
  orch_tasks: TasksTable
  orch_sprints: SprintsTable
  orch_attempts: AttemptsTable
}

export interface FinishedTask {
  taskId: string
  agent: string | null
  status: string
  sprintId: string
  directivesDigest: string | null
  finishedAt: string
}

export interface AgentModelUse {
  agent: string
  model: string | null
  startedAt: string
}

const ENDED = ['DONE', 'NO_GO', 'BLOCKED']

export function createEvolutionRepository(db: Kysely<EvolutionTables>, projectId: number) {
  return {
    /** Tasks that ended with a verdict on their agent (DONE or NO_GO), oldest first. */
    async finishedTasks(limit = 20_000): Promise<FinishedTask[]> {
      const rows = await db
        .selectFrom('orch_tasks as t')
        .innerJoin('orch_sprints as s', 's.id', 't.sprint_id')
        .select([
          't.id as taskId',
          't.agent',
          't.status',
          't.sprint_id as sprintId',
          's.directives_digest as directivesDigest',
          't.finished_at as finishedAt'
        ])
        .where('s.project_id', '=', projectId)
        .where(
          't.status',
          'in',
          ENDED.filter((s) => s !== 'BLOCKED')
        )
        .where('t.finished_at', 'is not', null)
        .orderBy('t.finished_at')
        .orderBy('t.id')
        .limit(limit)
        .execute()
      return rows.map((r) => ({ ...r, finishedAt: r.finishedAt! }))
    },

    /** Each agent's attempts with the model the provider reported, oldest first. */
    async modelUses(limit = 20_000): Promise<AgentModelUse[]> {
      const rows = await db
        .selectFrom('orch_attempts as a')
        .innerJoin('orch_tasks as t', 't.id', 'a.task_id')
        .innerJoin('orch_sprints as s', 's.id', 't.sprint_id')
        .select(['a.agent', 'a.model', 'a.started_at as startedAt'])
        .where('s.project_id', '=', projectId)
        .orderBy('a.started_at')
        .orderBy('a.id')
        .limit(limit)
        .execute()
      return rows
    }
  }
}
export type EvolutionRepository = ReturnType<typeof createEvolutionRepository>
