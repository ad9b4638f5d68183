import { categoryOf, type Approval, type ApprovalCategory } from '../../state/domain.js'

export const APPROVAL_CONTRACT_VERSION = '1.0'

export interface ApprovalDecisionView {
  requestId: string
  decision: string
  decidedBy: string
  channel: string
  decidedAt: string
  reason: string
  closureReason?: string
}

export interface ApprovalEntryView {
  category: ApprovalCategory
  /** What the waiting work does: allow, deny, or null while pending. */
  effect: 'allow' | 'deny' | null
  request: {
    id: string
    version: string
    requester: { kind: string; id: string }
    summary: string
    scope: string
    risk: string
    policy: string
    defaultAction: string
    taskId: string | null
    /** What the request is about when it is not a task (a parked submission's execution id). */
    scopeId: string | null
    toolName: string | null
    maskedArgs: unknown
    createdAt: string
    expiresAt: string
  }
  decision: ApprovalDecisionView | null
}

export interface ApprovalHistoryEntry {
  id: string
  summary: string
  scope: string
  risk: string
  policy: string
  maskedArgs: unknown
  category: ApprovalCategory
  channel: string | null
  decidedBy: string | null
  decidedAt: string | null
  reason: string | null
  createdAt: string
  expiresAt: string
}

function decisionOf(approval: Approval): ApprovalDecisionView | null {
  if (approval.decision === null) return null
  return {
    requestId: approval.id,
    decision: approval.decision,
    decidedBy: approval.decidedBy ?? '',
    channel: approval.channel ?? '',
    decidedAt: approval.decidedAt ?? '',
    reason: approval.reason ?? '',
    ...(approval.closureReason ? { closureReason: approval.closureReason } : {})
  }
}

/** How a closed request was closed: by a decision, by its expiry, or superseded (its run stopped or was abandoned). */
export type Closure = 'decided' | 'expired' | 'superseded'

/** Why a request is no longer open, in words every channel (HTTP, CLI, RPC) answers a late decider with; null while pending. */
export function closureOf(entry: ApprovalEntryView): { closure: Closure; text: string } | null {
  if (entry.category === 'pending') return null
  const d = entry.decision
  // `withdrawn`: an agent's in-run request its task's end closed (a form of superseding).
  if (d?.closureReason === 'superseded' || d?.closureReason === 'withdrawn')
    return { closure: 'superseded', text: `${d.closureReason} without a decision: ${d.reason}` }
  if (entry.category === 'expired')
    return {
      closure: 'expired',
      text: `expired at ${entry.request.expiresAt} without a decision (default action ${entry.request.defaultAction} applied)`
    }
  const how = d ? `${d.decision} by ${d.decidedBy} via ${d.channel} at ${d.decidedAt}` : 'closed'
  return { closure: 'decided', text: `already decided (${entry.category}): ${how}` }
}

/** What the waiting work does: allow, deny (an expiry applies its default action), or null while pending. */
export function effectOf(approval: Approval, category: ApprovalCategory): 'allow' | 'deny' | null {
  if (approval.decision !== null) return approval.decision === 'allow' ? 'allow' : 'deny'
  if (category !== 'expired') return null
  return approval.defaultAction === 'allow' ? 'allow' : 'deny'
}

/** The served shape of a request: raw arguments and their file reference never leave the server. */
export function renderEntry(approval: Approval, now: string): ApprovalEntryView {
  const category = categoryOf(approval, now)
  return {
    category,
    effect: effectOf(approval, category),
    request: {
      id: approval.id,
      version: APPROVAL_CONTRACT_VERSION,
      requester: { kind: approval.requesterKind, id: approval.requesterId },
      summary: approval.summary,
      scope: approval.scope,
      risk: approval.risk,
      policy: approval.policy,
      defaultAction: approval.defaultAction,
      taskId: approval.taskId,
      scopeId: approval.scopeId,
      toolName: approval.toolName,
      maskedArgs: approval.maskedArgs,
      createdAt: approval.createdAt,
      expiresAt: approval.expiresAt
    },
    decision: decisionOf(approval)
  }
}

export function renderHistoryEntry(approval: Approval, now: string): ApprovalHistoryEntry {
  return {
    id: approval.id,
    summary: approval.summary,
    scope: approval.scope,
    risk: approval.risk,
    policy: approval.policy,
    maskedArgs: approval.maskedArgs,
    category: categoryOf(approval, now),
    channel: approval.channel,
    decidedBy: approval.decidedBy,
    decidedAt: approval.decidedAt,
    reason: approval.reason,
    createdAt: approval.createdAt,
    expiresAt: approval.expiresAt
  }
}
