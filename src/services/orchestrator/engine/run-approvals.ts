/**
 * Approvals inside a run: a permission request that names a task (Quartet's MCP permission tool,
 * a PreToolUse hook, POST /api/approvals/requests) parks that task AWAITING_APPROVAL while its
 * agent waits, and the task is EXECUTING again once none of its requests is open.
 *
 * The request is recorded (and usually decided) by the server or the CLI while the job process
 * runs the agent; both only share the database. So every status change here is conditional
 * (EXECUTING → AWAITING_APPROVAL, and back only while no request of the task is open), the engine
 * accepts AWAITING_APPROVAL wherever it ends an executing task, and whatever ends the agent
 * closes the requests it left open, with a reason, so none stays pending behind a finished task.
 */
import type { Approval } from '../state/approvals.domain.js'
import { TTL_EXPIRE_CHANNEL } from '../state/approvals.domain.js'
import type { OrchestratorRepositories } from '../state/repositories.js'
import type { InRunApprovalOutcome } from './events.js'
import type { TaskStatus } from './types.js'

/** The channel of a request the engine closed because the agent that asked ended first. */
export const WITHDRAWN_CHANNEL = 'withdrawn'

export interface RunApprovalsDeps {
  repositories: Pick<OrchestratorRepositories, 'tasks' | 'approvals' | 'events'>
  projectId: number
  clock: () => Date
  /** Wakes this process's event tailers (the server's SSE streams). */
  notify?: () => void
}

export interface RunApprovals {
  /** A request was recorded: an agent's request parks its task while the agent runs. */
  requested(approval: Approval): Promise<void>
  /** A request was closed (decided, expired, withdrawn): the task runs on once none of its requests is open. */
  closed(approval: ClosedRequest): Promise<void>
  /** Closes the requests the task's agent left open when it ended (exit, timeout, kill): `why` is their reason. */
  withdraw(taskId: string, why: string): Promise<void>
  /** The task's agent requests since `since` that were not allowed (denied, expired, left unanswered), as a NO_GO reason names them. */
  refusals(taskId: string, since: string): Promise<string[]>
}

type ClosedRequest = Pick<Approval, 'id' | 'tenantId' | 'taskId'> & { requesterKind: string }

const ENDED: readonly TaskStatus[] = ['DONE', 'NO_GO', 'CANCELLED', 'ORPHANED', 'BLOCKED']

const inRun = <T extends { taskId: string | null; requesterKind: string }>(approval: T): approval is T & { taskId: string } =>
  approval.taskId !== null && approval.requesterKind !== 'engine'

export function outcomeOf(approval: Pick<Approval, 'decision' | 'channel'>): InRunApprovalOutcome | null {
  if (approval.decision === null) return null
  if (approval.channel === TTL_EXPIRE_CHANNEL) return 'expired'
  if (approval.channel === WITHDRAWN_CHANNEL) return 'withdrawn'
  return approval.decision === 'allow' ? 'approved' : 'denied'
}

/** One closed request in words: "a human (cli:ana) denied Bash: make release (apr_…)". */
export function describeClosed(approval: Approval): string {
  const because = approval.reason ? `: ${approval.reason}` : ''
  switch (outcomeOf(approval)) {
    case 'expired':
      return `the approval request for ${approval.summary} expired unanswered (${approval.id}; default action ${approval.defaultAction})`
    case 'withdrawn':
      return `the approval request for ${approval.summary} was closed unanswered (${approval.id}${because})`
    case 'approved':
      return `a human (${approval.decidedBy ?? 'unknown'}) allowed ${approval.summary} (${approval.id})`
    case 'denied':
      return `a human (${approval.decidedBy ?? 'unknown'}) denied ${approval.summary} (${approval.id}${because})`
    default:
      return `the approval request for ${approval.summary} is pending (${approval.id})`
  }
}

export function createRunApprovals(deps: RunApprovalsDeps): RunApprovals {
  const { repositories: repos, projectId } = deps

  async function closed(approval: ClosedRequest): Promise<void> {
    if (!inRun(approval)) return
    const task = await repos.tasks.getInProject(projectId, approval.taskId)
    const row = await repos.approvals.get(projectId, approval.tenantId, approval.id)
    const outcome = row && outcomeOf(row)
    if (!task || !row || !outcome) return
    // On PostgreSQL the UPDATE may not see a request committed while it ran: look again after it.
    if (await repos.tasks.resumeAfterApproval(task.id)) {
      const stillOpen = await repos.approvals.agentRequestsOfTask(projectId, task.id, { open: true })
      if (stillOpen.length > 0) await repos.tasks.transition(task.id, 'AWAITING_APPROVAL', { from: ['EXECUTING'] })
    }
    const status = (await repos.tasks.get(task.id))?.status ?? task.status
    await repos.events.append(projectId, {
      type: 'task_approval_closed',
      sprintId: task.sprintId,
      taskId: task.id,
      data: { approvalId: row.id, outcome, reason: describeClosed(row), status }
    })
    deps.notify?.()
  }

  async function withdraw(taskId: string, why: string): Promise<void> {
    for (const open of await repos.approvals.agentRequestsOfTask(projectId, taskId, { open: true })) {
      const at = deps.clock().toISOString()
      const expired = open.expiresAt <= at
      const won = await repos.approvals.decide(
        open.id,
        expired
          ? {
              decision: open.defaultAction,
              decidedBy: 'system:ttl',
              channel: TTL_EXPIRE_CHANNEL,
              decidedAt: at,
              reason: `expired without a decision; default action ${open.defaultAction}`,
              closureReason: 'expired',
              idempotencyKey: null,
              decisionDigest: null
            }
          : {
              decision: 'deny',
              decidedBy: 'system:engine',
              channel: WITHDRAWN_CHANNEL,
              decidedAt: at,
              reason: why,
              closureReason: 'withdrawn',
              idempotencyKey: null,
              decisionDigest: null
            },
        { now: at, allowExpired: expired }
      )
      // Lost: a human's decision landed first, and its writer reports it.
      if (won) await closed(open)
    }
  }

  return {
    async requested(approval) {
      if (!inRun(approval)) return
      const task = await repos.tasks.getInProject(projectId, approval.taskId)
      if (!task) return
      // Only a running agent can wait: a request naming a task that is not executing parks nothing,
      // and one that arrives after the task ended (its agent's last gasp) is closed at once.
      const parked = await repos.tasks.transition(task.id, 'AWAITING_APPROVAL', { from: ['EXECUTING'] })
      const status = parked ? 'AWAITING_APPROVAL' : (await repos.tasks.get(task.id))?.status
      if (status && ENDED.includes(status)) await withdraw(task.id, `task ${task.id} has ended (${status})`)
      if (status !== 'AWAITING_APPROVAL') return
      await repos.events.append(projectId, {
        type: 'task_awaiting_approval',
        sprintId: task.sprintId,
        taskId: task.id,
        data: { approvalId: approval.id, expiresAt: approval.expiresAt, summary: approval.summary }
      })
      deps.notify?.()
    },

    closed,
    withdraw,

    async refusals(taskId, since) {
      const asked = await repos.approvals.agentRequestsOfTask(projectId, taskId, { since })
      return asked.filter((row) => outcomeOf(row) !== 'approved').map(describeClosed)
    }
  }
}

/** A NO_GO reason with the refused requests put after its first line (the rest is the output tail). */
export function withRefusals(reason: string, refusals: readonly string[]): string {
  if (refusals.length === 0) return reason
  const cut = reason.indexOf('\n')
  const head = cut === -1 ? reason : reason.slice(0, cut)
  const tail = cut === -1 ? '' : reason.slice(cut)
  return `${head}; ${refusals.join('; ')}${tail}`
}
