/**
 * The scheduler's approval hook: a task whose risk class the config lists in
 * `approval.require_for_risk` is parked AWAITING_APPROVAL with an approval request and runs only
 * once a human allows it. The job process learns the decision by polling the database (decisions
 * are taken in the server or the CLI), at most POLL_MS late.
 */
import { ENGINE_PRINCIPAL, type Principal } from '../principal.js'
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

/** An approval request as the gate reads it (the approvals module's entry view). */
export interface GateEntry {
  category: string
  effect: 'allow' | 'deny' | null
  request: { id: string; expiresAt: string; defaultAction: string }
  decision: { decision: string; decidedBy: string; reason: string } | null
}

/** What the gate needs of the approvals store; the composition root passes the approvals service. */
export interface GateApprovals {
  pendingForTask(taskId: string): Promise<GateEntry | null>
  request(input: {
    requesterKind: 'engine'
    requesterId: string
    taskId: string
    summary: string
    scope: string
    risk: string
    toolName: null
    args: unknown
  }): Promise<GateEntry>
  wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<GateEntry>
  decide(caller: Principal, input: { id: string; decision: 'deny'; reason: string; channel: string }): Promise<unknown>
}

export interface TaskApprovalGateOptions {
  service: GateApprovals
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
            .decide(ENGINE_PRINCIPAL, { id: approvalId, decision: 'deny', reason: `withdrawn: ${reason}`, channel: 'withdrawn' })
            .catch(() => {})
          return { allowed: false, approvalId, cancelled: true, reason }
        }
      }
    }
  }
}
