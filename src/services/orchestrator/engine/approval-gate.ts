/**
 * The scheduler's approval hook: a task whose risk class the config lists in
 * `approval.require_for_risk` is parked AWAITING_APPROVAL with an approval request and runs only
 * once a human allows it. The job process learns the decision by polling the database (decisions
 * are taken in the server or the CLI), at most POLL_MS late.
 *
 * One request per task survives a crash: a task resumed after its job died rejoins its still-open
 * request, and a human's decision taken while no job was watching counts for the resumed attempt
 * (the task is asked once). Only a request closed without a human's decision (superseded by a stop,
 * or expired) is asked again.
 */
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
  decision: { decision: string; decidedBy: string; reason: string; channel: string; closureReason?: string } | null
}

/** What the gate needs of the approvals store; the composition root passes the approvals service. */
export interface GateApprovals {
  latestForTask(taskId: string): Promise<GateEntry | null>
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
  supersede(id: string, input: { reason: string; channel: string }): Promise<boolean>
}

/** The request was closed by a person (allowed or denied), not superseded by a stop nor expired. */
function decidedByHuman(entry: GateEntry): boolean {
  const decision = entry.decision
  if (decision === null || entry.category === 'expired' || entry.category === 'pending') return false
  // `withdrawn` without a closure reason: a request withdrawn before closures were recorded.
  return decision.closureReason === undefined && decision.channel !== 'withdrawn'
}

function verdictOf(entry: GateEntry): ApprovalVerdict {
  const approvalId = entry.request.id
  if (entry.effect === 'allow') return { allowed: true, approvalId }
  const decision = entry.decision
  const how =
    entry.category === 'expired'
      ? `expired without a decision (default action ${entry.request.defaultAction})`
      : `${decision?.decision ?? 'denied'} by ${decision?.decidedBy ?? 'unknown'}${decision?.reason ? `: ${decision.reason}` : ''}`
  return { allowed: false, approvalId, cancelled: false, reason: `approval ${approvalId} ${how}` }
}

export interface TaskApprovalGateOptions {
  service: GateApprovals
  requireForRisk: readonly string[]
}

export function createTaskApprovalGate(options: TaskApprovalGateOptions): TaskApprovalGate {
  return {
    requires: (task) => task.risk !== undefined && options.requireForRisk.includes(task.risk),

    async await({ taskId, task, signal, onParked }) {
      const latest = await options.service.latestForTask(taskId)
      if (latest && decidedByHuman(latest)) return verdictOf(latest)
      const entry =
        latest?.category === 'pending'
          ? latest
          : await options.service.request({
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
            })
      const approvalId = entry.request.id
      await onParked(approvalId, entry.request.expiresAt)
      for (;;) {
        const current = await options.service.wait(approvalId, POLL_MS, signal)
        if (current.effect !== null) return verdictOf(current)
        if (signal.aborted) {
          const reason = typeof signal.reason === 'string' ? signal.reason : 'run stopped'
          // The request no longer guards anything: close it so the inbox does not offer it.
          await options.service.supersede(approvalId, { reason: `withdrawn: ${reason}`, channel: 'withdrawn' }).catch(() => false)
          return { allowed: false, approvalId, cancelled: true, reason }
        }
      }
    }
  }
}
