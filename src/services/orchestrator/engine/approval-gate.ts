/**
 * The scheduler's approval hook: a task whose risk class the config lists in
 * `approval.require_for_risk` is parked AWAITING_APPROVAL with an approval request and runs only
 * once a human allows it. The job process learns the decision by polling the database (decisions
 * are taken in the server or the CLI), at most POLL_MS late.
 */
import type { ApprovalsService } from '../modules/approvals/approvals.service.js'
import type { PlannedTask } from './types.js'

const POLL_MS = 500

export type ApprovalVerdict =
  { allowed: true; approvalId: string } | { allowed: false; approvalId: string; reason: string; cancelled: boolean }

export interface TaskApprovalGate {
  requires(task: PlannedTask): boolean
  /** Records (or, on resume, rejoins) the task's request and waits for its outcome; `onParked` runs once it is recorded. */
  await(input: {
    taskId: string
    task: PlannedTask
    signal: AbortSignal
    onParked(approvalId: string, expiresAt: string): Promise<void>
  }): Promise<ApprovalVerdict>
}

export interface TaskApprovalGateOptions {
  service: Pick<ApprovalsService, 'request' | 'wait' | 'decide' | 'pendingForTask'>
  requireForRisk: readonly string[]
}

export function createTaskApprovalGate(options: TaskApprovalGateOptions): TaskApprovalGate {
  return {
    requires: (task) => task.risk !== undefined && options.requireForRisk.includes(task.risk),

    async await({ taskId, task, signal, onParked }) {
      const existing = await options.service.pendingForTask(taskId)
      const entry =
        existing ??
        (await options.service.request({
          requesterKind: 'engine',
          requesterId: `engine:${taskId}`,
          taskId,
          summary: `Run task ${taskId} (risk ${task.risk}): ${task.title}`,
          scope: 'lifecycle',
          risk: task.risk ?? 'high',
          toolName: null,
          args: {
            taskId,
            title: task.title,
            description: task.description,
            files: task.files,
            agent: task.agent ?? null,
            check: task.check ?? null
          }
        }))
      const approvalId = entry.request.id
      await onParked(approvalId, entry.request.expiresAt)
      for (;;) {
        const current = await options.service.wait(approvalId, POLL_MS, signal)
        if (current.effect === 'allow') return { allowed: true, approvalId }
        if (current.effect === 'deny') {
          const decision = current.decision
          const how =
            current.category === 'expired'
              ? `expired without a decision (default action ${current.request.defaultAction})`
              : `${decision?.decision ?? 'denied'} by ${decision?.decidedBy ?? 'unknown'}${decision?.reason ? `: ${decision.reason}` : ''}`
          return { allowed: false, approvalId, cancelled: false, reason: `approval ${approvalId} ${how}` }
        }
        if (signal.aborted) {
          const reason = typeof signal.reason === 'string' ? signal.reason : 'run stopped'
          // The request no longer guards anything: close it so the inbox does not offer it.
          await options.service
            .decide({ id: approvalId, decision: 'deny', reason: `withdrawn: ${reason}`, decidedBy: 'engine', channel: 'withdrawn' })
            .catch(() => {})
          return { allowed: false, approvalId, cancelled: true, reason }
        }
      }
    }
  }
}
