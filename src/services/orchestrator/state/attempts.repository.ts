import { sql } from 'kysely'
import type { Usage } from '../engine/types.js'
import type { OrchestratorDb } from './db.js'
import { processesOf, toAttempt, type Attempt, type AttemptStatus } from './domain.js'

export interface UsageTotals {
  inputTokens: number
  outputTokens: number
  costMicroUsd: number
  attempts: number
}

/** Money is stored as integer micro-dollars so sums never drift. */
export function toMicroUsd(usd: number | null): number {
  return usd === null ? 0 : Math.round(usd * 1_000_000)
}

function totals(row: { input: unknown; output: unknown; cost: unknown; attempts: unknown } | undefined): UsageTotals {
  return {
    inputTokens: Number(row?.input ?? 0),
    outputTokens: Number(row?.output ?? 0),
    costMicroUsd: Number(row?.cost ?? 0),
    attempts: Number(row?.attempts ?? 0)
  }
}

export function createAttemptsRepository(db: OrchestratorDb, clock: () => Date) {
  const sums = () =>
    [
      sql<number>`coalesce(sum(orch_attempts.input_tokens), 0)`.as('input'),
      sql<number>`coalesce(sum(orch_attempts.output_tokens), 0)`.as('output'),
      sql<number>`coalesce(sum(orch_attempts.cost_micro_usd), 0)`.as('cost'),
      sql<number>`count(orch_attempts.id)`.as('attempts')
    ] as const

  return {
    async start(taskId: string, jobId: number, number: number, agent: string): Promise<Attempt> {
      const row = await db
        .insertInto('orch_attempts')
        .values({
          task_id: taskId,
          job_id: jobId,
          number,
          agent,
          status: 'running',
          exit_code: null,
          reason: null,
          cost_micro_usd: null,
          model: null,
          agent_ms: null,
          started_at: clock().toISOString(),
          finished_at: null
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toAttempt(row)
    },

    async get(id: number): Promise<Attempt | undefined> {
      const row = await db.selectFrom('orch_attempts').selectAll().where('id', '=', id).executeTakeFirst()
      return row && toAttempt(row)
    },

    /** Records a started process group with its start time. Compare-and-set on the JSON list, so no concurrent add is lost. */
    async addPid(id: number, pid: number, startTicks: number | null = null): Promise<void> {
      for (;;) {
        const row = await db.selectFrom('orch_attempts').select('pids').where('id', '=', id).executeTakeFirstOrThrow()
        const recorded = processesOf(row.pids)
        if (recorded.some((entry) => entry.pid === pid)) return
        const result = await db
          .updateTable('orch_attempts')
          .set({ pids: JSON.stringify([...recorded, { pid, startTicks }]) })
          .where('id', '=', id)
          .where('pids', '=', row.pids)
          .executeTakeFirst()
        if (result.numUpdatedRows > 0n) return
      }
    },

    /** Adds one usage report (agents may report several times per attempt). */
    async addUsage(id: number, usage: Usage): Promise<void> {
      const cost = usage.costUsd === null ? null : toMicroUsd(usage.costUsd)
      await db
        .updateTable('orch_attempts')
        .set({
          input_tokens: sql`input_tokens + ${usage.inputTokens}`,
          output_tokens: sql`output_tokens + ${usage.outputTokens}`,
          ...(cost === null ? {} : { cost_micro_usd: sql`coalesce(cost_micro_usd, 0) + ${cost}` }),
          ...(usage.model ? { model: usage.model } : {})
        })
        .where('id', '=', id)
        .execute()
    },

    async finish(
      id: number,
      result: {
        status: Exclude<AttemptStatus, 'running'>
        exitCode: number | null
        reason: string
        transient: boolean
        agentMs: number | null
      }
    ): Promise<boolean> {
      const updated = await db
        .updateTable('orch_attempts')
        .set({
          status: result.status,
          exit_code: result.exitCode,
          reason: result.reason,
          transient: result.transient ? 1 : 0,
          agent_ms: result.agentMs,
          finished_at: clock().toISOString()
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst()
      return updated.numUpdatedRows > 0n
    },

    async listForTask(taskId: string): Promise<Attempt[]> {
      return (await db.selectFrom('orch_attempts').selectAll().where('task_id', '=', taskId).orderBy('number').execute()).map(toAttempt)
    },

    async listForJob(jobId: number): Promise<Attempt[]> {
      return (await db.selectFrom('orch_attempts').selectAll().where('job_id', '=', jobId).orderBy('id').execute()).map(toAttempt)
    },

    /** Attempts still marked running: of one job, or of one task. */
    async listRunning(filter: { jobId?: number; taskId?: string }): Promise<Attempt[]> {
      let query = db.selectFrom('orch_attempts').selectAll().where('status', '=', 'running')
      if (filter.jobId !== undefined) query = query.where('job_id', '=', filter.jobId)
      if (filter.taskId !== undefined) query = query.where('task_id', '=', filter.taskId)
      return (await query.orderBy('id').execute()).map(toAttempt)
    },

    async usageForSprint(sprintId: string): Promise<UsageTotals> {
      const row = await db
        .selectFrom('orch_attempts')
        .innerJoin('orch_tasks', 'orch_tasks.id', 'orch_attempts.task_id')
        .select(sums())
        .where('orch_tasks.sprint_id', '=', sprintId)
        .executeTakeFirst()
      return totals(row)
    },

    async usageByAgent(sprintId: string): Promise<Array<{ agent: string } & UsageTotals>> {
      const rows = await db
        .selectFrom('orch_attempts')
        .innerJoin('orch_tasks', 'orch_tasks.id', 'orch_attempts.task_id')
        .select(['orch_attempts.agent', ...sums()])
        .where('orch_tasks.sprint_id', '=', sprintId)
        .groupBy('orch_attempts.agent')
        .orderBy('orch_attempts.agent')
        .execute()
      return rows.map((row) => ({ agent: row.agent, ...totals(row) }))
    },

    /** Every attempt of a sprint's tasks, oldest first (the newest per task is the last one seen). */
    async listForSprint(sprintId: string): Promise<Attempt[]> {
      const rows = await db
        .selectFrom('orch_attempts')
        .selectAll('orch_attempts')
        .innerJoin('orch_tasks', 'orch_tasks.id', 'orch_attempts.task_id')
        .where('orch_tasks.sprint_id', '=', sprintId)
        .orderBy('orch_attempts.id')
        .execute()
      return rows.map(toAttempt)
    },

    /** The agents each sprint of a project ran, by sprint id (sorted names). */
    async agentsPerSprint(projectId: number): Promise<Map<string, string[]>> {
      const rows = await db
        .selectFrom('orch_attempts')
        .innerJoin('orch_tasks', 'orch_tasks.id', 'orch_attempts.task_id')
        .innerJoin('orch_sprints', 'orch_sprints.id', 'orch_tasks.sprint_id')
        .select(['orch_tasks.sprint_id', 'orch_attempts.agent'])
        .distinct()
        .where('orch_sprints.project_id', '=', projectId)
        .orderBy('orch_attempts.agent')
        .execute()
      const perSprint = new Map<string, string[]>()
      for (const row of rows) perSprint.set(row.sprint_id, [...(perSprint.get(row.sprint_id) ?? []), row.agent])
      return perSprint
    }
  }
}
export type AttemptsRepository = ReturnType<typeof createAttemptsRepository>
