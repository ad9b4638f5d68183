import type { ApprovalRow } from '../../state/db.js'
import { categoryOf, type ApprovalCategory } from '../../state/approvals.repository.js'

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

function decisionOf(row: ApprovalRow): ApprovalDecisionView | null {
  if (row.decision === null) return null
  return {
    requestId: row.id,
    decision: row.decision,
    decidedBy: row.decided_by ?? '',
    channel: row.channel ?? '',
    decidedAt: row.decided_at ?? '',
    reason: row.reason ?? '',
    ...(row.closure_reason ? { closureReason: row.closure_reason } : {})
  }
}

/** The served shape of a request: raw arguments and their file reference never leave the server. */
export function renderEntry(row: ApprovalRow, now: string): ApprovalEntryView {
  const category = categoryOf(row, now)
  const effect =
    row.decision === null
      ? category === 'expired'
        ? row.default_action === 'allow'
          ? 'allow'
          : 'deny'
        : null
      : row.decision === 'allow'
        ? 'allow'
        : 'deny'
  return {
    category,
    effect,
    request: {
      id: row.id,
      version: APPROVAL_CONTRACT_VERSION,
      requester: { kind: row.requester_kind, id: row.requester_id },
      summary: row.summary,
      scope: row.scope,
      risk: row.risk,
      policy: row.policy,
      defaultAction: row.default_action,
      taskId: row.task_id,
      scopeId: row.scope_id,
      toolName: row.tool_name,
      maskedArgs: JSON.parse(row.masked_args) as unknown,
      createdAt: row.created_at,
      expiresAt: row.expires_at
    },
    decision: decisionOf(row)
  }
}

export function renderHistoryEntry(row: ApprovalRow, now: string): ApprovalHistoryEntry {
  return {
    id: row.id,
    summary: row.summary,
    scope: row.scope,
    risk: row.risk,
    policy: row.policy,
    maskedArgs: JSON.parse(row.masked_args) as unknown,
    category: categoryOf(row, now),
    channel: row.channel,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    reason: row.reason,
    createdAt: row.created_at,
    expiresAt: row.expires_at
  }
}
