/** Approval requests as the rest of the service sees them (see domain.ts for the conventions). */
import type { ApprovalRow } from './db.js'

// PostgreSQL answers bigint columns as strings: numbers are read through Number().
const num = (value: unknown): number => Number(value)

export type ApprovalCategory = 'pending' | 'approved' | 'denied' | 'expired'
export type ApprovalDecisionValue = 'allow' | 'deny' | 'defer' | 'escalate'
export type RequesterKind = 'engine' | 'agent' | 'process'

export interface Approval {
  id: string
  projectId: number
  tenantId: string
  /** What the request is about when that is not a task: the execution of a parked process submission. */
  scopeId: string | null
  taskId: string | null
  requesterKind: RequesterKind
  requesterId: string
  summary: string
  scope: string
  risk: string
  policy: string
  defaultAction: ApprovalDecisionValue
  toolName: string | null
  maskedArgs: unknown
  /** The file (under the data dir) holding the unmasked arguments, when masking hid something. */
  rawArgsRef: string | null
  createdAt: string
  expiresAt: string
  decision: ApprovalDecisionValue | null
  decidedBy: string | null
  channel: string | null
  decidedAt: string | null
  reason: string | null
  closureReason: string | null
  idempotencyKey: string | null
  decisionDigest: string | null
}

export const TTL_EXPIRE_CHANNEL = 'ttl-expire'

/** The category of a request at `now` (an undecided one past its expiry is expired even before the sweep). */
export function categoryOf(approval: Pick<Approval, 'decision' | 'expiresAt' | 'channel'>, now: string): ApprovalCategory {
  if (approval.decision === null) return approval.expiresAt <= now ? 'expired' : 'pending'
  if (approval.channel === TTL_EXPIRE_CHANNEL) return 'expired'
  return approval.decision === 'allow' ? 'approved' : 'denied'
}

export function toApproval(row: ApprovalRow): Approval {
  return {
    id: row.id,
    projectId: num(row.project_id),
    tenantId: row.tenant_id,
    scopeId: row.scope_id,
    taskId: row.task_id,
    requesterKind: row.requester_kind as RequesterKind,
    requesterId: row.requester_id,
    summary: row.summary,
    scope: row.scope,
    risk: row.risk,
    policy: row.policy,
    defaultAction: row.default_action as ApprovalDecisionValue,
    toolName: row.tool_name,
    maskedArgs: JSON.parse(row.masked_args) as unknown,
    rawArgsRef: row.raw_args_ref,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    decision: row.decision as ApprovalDecisionValue | null,
    decidedBy: row.decided_by,
    channel: row.channel,
    decidedAt: row.decided_at,
    reason: row.reason,
    closureReason: row.closure_reason,
    idempotencyKey: row.idempotency_key,
    decisionDigest: row.decision_digest
  }
}
