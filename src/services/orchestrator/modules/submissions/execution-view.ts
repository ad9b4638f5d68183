/**
 * The state of a submission as it really is: the row says what was decided, the job and the
 * sprint's tasks say how the work went. Nothing here writes.
 */
import type { RunControl } from '../../engine/run-control.js'
import type { Execution, ExecutionStatus } from '../../state/domain.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import type { ApprovalEntry } from './approval-requests.js'

export type { ExecutionStatus } from '../../state/domain.js'
export interface LastResult {
  ok: boolean
  reason?: string
  settleDetail?: 'done' | 'debt' | 'failed'
}

export interface ExecutionView {
  id: string
  title: string
  kind: string
  status: ExecutionStatus
  effectClass: string
  reason: string | null
  approvalId: string | null
  sprintId: string | null
  jobId: number | null
  progress: { done: number; total: number }
  lastResult: LastResult | null
  createdAt: string
  updatedAt: string
}

export interface ViewDeps {
  repositories: Pick<OrchestratorRepositories, 'jobs' | 'tasks'>
  runControl: Pick<RunControl, 'reconcile'>
}

interface Progress {
  done: number
  total: number
  noGo: number
  blocked: number
  cancelled: number
  orphaned: number
}

export async function sprintProgress(repositories: Pick<OrchestratorRepositories, 'tasks'>, sprintId: string): Promise<Progress> {
  const c = await repositories.tasks.countByStatus(sprintId)
  return {
    done: c.DONE ?? 0,
    noGo: c.NO_GO ?? 0,
    blocked: c.BLOCKED ?? 0,
    cancelled: c.CANCELLED ?? 0,
    orphaned: c.ORPHANED ?? 0,
    total: Object.values(c).reduce((a: number, b) => a + (b ?? 0), 0)
  }
}

function outcome(progress: Progress, jobStatus: string, jobError: string | null): { status: ExecutionStatus; lastResult: LastResult } {
  if (jobStatus === 'completed' && progress.total > 0 && progress.done === progress.total)
    return { status: 'done', lastResult: { ok: true, settleDetail: 'done' } }
  const parts = [`${progress.done} of ${progress.total} tasks DONE`]
  if (progress.noGo > 0) parts.push(`${progress.noGo} NO_GO`)
  if (progress.blocked > 0) parts.push(`${progress.blocked} BLOCKED`)
  if (progress.cancelled > 0) parts.push(`${progress.cancelled} CANCELLED`)
  if (progress.orphaned > 0) parts.push(`${progress.orphaned} ORPHANED`)
  parts.push(`job ${jobStatus}${jobError ? `: ${jobError}` : ''}`)
  return { status: 'failed', lastResult: { ok: false, reason: parts.join(', '), settleDetail: progress.done > 0 ? 'debt' : 'failed' } }
}

/** `reconciled`: the caller already reconciled the project's run (a list reconciles once, not per row). */
export async function executionView(
  deps: ViewDeps,
  execution: Execution,
  approval: ApprovalEntry | null,
  options: { reconciled?: boolean } = {}
): Promise<ExecutionView> {
  const base = {
    id: execution.id,
    title: execution.title,
    kind: execution.kind,
    effectClass: execution.effectClass,
    reason: execution.reason,
    approvalId: execution.approvalId,
    sprintId: execution.sprintId,
    jobId: execution.jobId,
    createdAt: execution.createdAt,
    updatedAt: execution.updatedAt
  }
  const noProgress = { done: 0, total: 0 }
  if (execution.status === 'parked') {
    // A decision or an expiry that the row has not caught up with is shown as it is.
    if (approval && (approval.category === 'denied' || (approval.category === 'expired' && approval.effect !== 'allow'))) {
      const reason =
        approval.category === 'expired'
          ? `approval request ${approval.id} expired undecided`
          : `approval request ${approval.id} was decided "${approval.decision?.decision}" by ${approval.decision?.decidedBy}`
      return { ...base, status: 'failed', reason, progress: noProgress, lastResult: { ok: false, reason, settleDetail: 'failed' } }
    }
    return { ...base, status: 'parked', progress: noProgress, lastResult: null }
  }
  if (execution.jobId === null || execution.sprintId === null) {
    const status = execution.status
    const lastResult =
      status === 'failed'
        ? { ok: false, reason: execution.reason ?? 'failed', settleDetail: 'failed' as const }
        : status === 'done'
          ? { ok: true, settleDetail: 'done' as const }
          : null
    return { ...base, status, progress: noProgress, lastResult }
  }
  if (!options.reconciled) await deps.runControl.reconcile(execution.projectId)
  const job = await deps.repositories.jobs.get(execution.jobId)
  const progress = await sprintProgress(deps.repositories, execution.sprintId)
  const counted = { done: progress.done, total: progress.total }
  if (!job || job.status === 'queued' || job.status === 'running')
    return { ...base, status: 'running', progress: counted, lastResult: null }
  return { ...base, progress: counted, ...outcome(progress, job.status, job.error) }
}
