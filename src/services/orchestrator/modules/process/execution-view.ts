/**
 * The state of a submission as it really is: the row says what was decided, the job and the
 * sprint's tasks say how the work went. Nothing here writes.
 */
import type { RunControl } from '../../engine/reconcile.js'
import type { ExecutionRow } from '../../state/db.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import type { ApprovalEntry } from './approvals-port.js'

export type ExecutionStatus = 'pending' | 'running' | 'parked' | 'done' | 'failed'
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
  repositories: OrchestratorRepositories
  runControl: RunControl
}

interface Progress {
  done: number
  total: number
  noGo: number
  blocked: number
  cancelled: number
  orphaned: number
}

export async function sprintProgress(repositories: OrchestratorRepositories, sprintId: string): Promise<Progress> {
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
  row: ExecutionRow,
  approval: ApprovalEntry | null,
  options: { reconciled?: boolean } = {}
): Promise<ExecutionView> {
  const base = {
    id: row.id,
    title: row.title,
    kind: row.kind,
    effectClass: row.effect_class,
    reason: row.reason,
    approvalId: row.approval_id,
    sprintId: row.sprint_id,
    jobId: row.job_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
  const noProgress = { done: 0, total: 0 }
  if (row.status === 'parked') {
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
  if (row.job_id === null || row.sprint_id === null) {
    const status = row.status as ExecutionStatus
    const lastResult =
      status === 'failed'
        ? { ok: false, reason: row.reason ?? 'failed', settleDetail: 'failed' as const }
        : status === 'done'
          ? { ok: true, settleDetail: 'done' as const }
          : null
    return { ...base, status, progress: noProgress, lastResult }
  }
  if (!options.reconciled) await deps.runControl.reconcile(row.project_id)
  const job = await deps.repositories.jobs.get(row.job_id)
  const progress = await sprintProgress(deps.repositories, row.sprint_id)
  const counted = { done: progress.done, total: progress.total }
  if (!job || job.status === 'queued' || job.status === 'running')
    return { ...base, status: 'running', progress: counted, lastResult: null }
  return { ...base, progress: counted, ...outcome(progress, job.status, job.error) }
}
