/**
 * Runs an accepted submission on the engine: every kind but `capability` becomes a planned
 * sprint started as a detached job with the project's agents. Answers at once; the job's
 * progress is read back from its sprint (execution-view.ts).
 */
import type { EngineService } from '../../engine/engine.service.js'
import { orchestratorError } from '../../errors.js'
import { ENGINE_PRINCIPAL } from '../../principal.js'
import type { CapabilityTarget, ExecutionKind, SubmissionRequest } from '../../state/domain.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'

export type { ExecutionKind } from '../../state/domain.js'
export const EXECUTION_KINDS: readonly ExecutionKind[] = ['task', 'sprint', 'process', 'capability']

export type Planned = { sprintId: string } | { failed: string }
export type Started = { sprintId: string; jobId: number } | { failed: string }

export interface RunStarterDeps {
  engine: Pick<EngineService, 'plan' | 'start'>
  repositories: Pick<OrchestratorRepositories, 'jobs'>
  projectId: number
}

export function titleOf(description: string): string {
  return (description.split('\n').find((line) => line.trim() !== '') ?? '').trim().slice(0, 80)
}

// Quoting every body line keeps a description from being read as headings or task options.
function taskBlock(key: number, text: string, dependsOn?: number): string {
  const title = titleOf(text).replace(/\s+#+\s*$/, '') || `step ${key}`
  const body = text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')
  return `## Task ${key}: ${title}\n${dependsOn === undefined ? '' : `Depends on: ${dependsOn}\n`}${body}\n`
}

export function directiveFor(request: SubmissionRequest): string | undefined {
  if (request.kind === 'task') return `# ${titleOf(request.description)}\n\n${taskBlock(1, request.description)}`
  if (request.kind === 'process') {
    return (
      `# ${titleOf(request.description)}\n\n` +
      `${(request.steps ?? []).map((step, i) => taskBlock(i + 1, step, i === 0 ? undefined : i)).join('\n')}`
    )
  }
  // A sprint plans the task blocks it carries, else the project's DIRECTIVES.md.
  return /^##\s+Task\s+\d/im.test(request.description) ? request.description : undefined
}

/**
 * Plans and starts the run of a submission. The submissions service decided that it may run (its
 * policy and the control switch), so the engine is driven as the engine itself.
 */
export function createRunStarter(deps: RunStarterDeps) {
  return {
    /** Why this request cannot start now, or null. Checked before anything is written. */
    async busy(): Promise<string | null> {
      const active = await deps.repositories.jobs.active(deps.projectId)
      return active ? `job ${active.id} (sprint ${active.sprintId}) is running; one run per project at a time` : null
    },

    /** Plans the sprint; throws the planner's HTTP errors (nothing is written when planning fails). */
    async plan(request: SubmissionRequest): Promise<{ sprintId: string }> {
      if (request.kind === 'capability') throw orchestratorError('BAD_REQUEST', 'a capability is not planned')
      const directive = directiveFor(request)
      const planned = await deps.engine.plan(
        ENGINE_PRINCIPAL,
        directive === undefined ? {} : { ...(request.kind === 'sprint' ? {} : { mode: 'structured' as const }), directive }
      )
      return { sprintId: planned.sprint.id }
    },

    /** Starts the planned sprint as a detached job; a run that got there first is reported, never joined. */
    async start(executionId: string, sprintId: string): Promise<Started> {
      try {
        const started = await deps.engine.start(ENGINE_PRINCIPAL, { owner: { executionId }, sprintId })
        if (!started.created || started.job.sprintId !== sprintId)
          return {
            failed: `another run started first (job ${started.job.id}, sprint ${started.job.sprintId}); sprint ${sprintId} stays planned`
          }
        return { sprintId, jobId: started.job.id }
      } catch (error) {
        return { failed: `the engine did not start sprint ${sprintId}: ${error instanceof Error ? error.message : String(error)}` }
      }
    },

    /** Plans and starts, reporting any failure as a reason (used after an approval allowed it). */
    async planAndStart(executionId: string, request: SubmissionRequest): Promise<Started> {
      const busy = await this.busy()
      if (busy) return { failed: busy }
      let planned
      try {
        planned = await this.plan(request)
      } catch (error) {
        return { failed: `planning failed: ${error instanceof Error ? error.message : String(error)}` }
      }
      return this.start(executionId, planned.sprintId)
    }
  }
}
export type RunStarter = ReturnType<typeof createRunStarter>

export function capabilityFailure(target: CapabilityTarget | undefined): string {
  if (target === undefined) return 'no connector for capability (none named)'
  const via = target.connector !== undefined ? ` (connector ${target.connector} is not configured)` : ''
  return `no connector for capability ${target.capability}${via}`
}
