/**
 * The RPC methods. Each validates its params strictly, authorises like its HTTP counterpart and
 * answers from the same services: run.start-detached is POST /api/start (control-gated),
 * approval.decide follows the approval decision route's gate and decides in the one approvals store
 * (a parked submission moves on inside that decision), limits.get is GET /api/limits.
 */
import path from 'node:path'
import { isAppError } from '../../../../core/errors/app-error.js'
import type { EngineService } from '../../engine/engine.service.js'
import { POLICY_GATES } from '../../policy.js'
import type { Principal } from '../../principal.js'
import type { StatusService } from '../status/status.service.js'
import type { InsightService } from '../insight/insight.service.js'
import { APPROVAL_DECISIONS, type ApprovalDecision, type ApprovalRequests } from '../submissions/approval-requests.js'
import { checkParams, isString, oneOf, RpcFailure, stringRecord } from './rpc.envelope.js'

export interface RpcDeps {
  projectRoot: string
  status: Pick<StatusService, 'findJob'>
  engine: Pick<EngineService, 'start'>
  approvals: ApprovalRequests
  insight: Pick<InsightService, 'limits'>
  /** The embedded terminal's sessions of the caller's tenant. */
  terminal: { list(caller: Principal): unknown[] }
}
const START_COMMANDS = ['run', 'run --resume'] as const
const RUN_ID = /^[1-9]\d{0,14}$/
const JOB_STATE = {
  queued: 'pending',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  orphaned: 'failed',
  killed: 'cancelled'
} as const

type Handler = (params: unknown, principal: Principal) => Promise<unknown>

/** Engine errors become typed RPC errors by their HTTP status; anything else is an internal error. */
function translate(error: unknown): never {
  if (error instanceof RpcFailure || !isAppError(error)) throw error
  const gate = (POLICY_GATES as Record<string, string>)[error.code]
  if (gate !== undefined) throw new RpcFailure('FORBIDDEN', error.message, { gate })
  const code =
    error.statusCode === 404
      ? 'NOT_FOUND'
      : error.statusCode === 409
        ? 'CONFLICT'
        : error.statusCode === 403
          ? 'FORBIDDEN'
          : error.statusCode < 500
            ? 'INVALID_PARAMS'
            : 'INTERNAL_ERROR'
  throw new RpcFailure(code, error.message, code === 'INVALID_PARAMS' ? { errors: [error.message] } : { reason: error.code })
}

export function rpcMethods(deps: RpcDeps): { handlers: Record<string, Handler>; notImplemented: Set<string> } {
  const handlers: Record<string, Handler> = {
    // The terminal's PTY sessions of the caller's tenant (GET /api/terminal/sessions).
    'session.list': async (params, principal) => {
      checkParams(params, {})
      try {
        return { sessions: deps.terminal.list(principal) }
      } catch (error) {
        translate(error)
      }
    },

    'run.status': async (params) => {
      const { runId } = checkParams<{ runId: string }>(params, { runId: { required: true, check: isString(20) } })
      const job = RUN_ID.test(runId) ? await deps.status.findJob(Number(runId)) : undefined
      if (!job) throw new RpcFailure('NOT_FOUND', `no run ${runId} in this project`, { runId })
      return {
        runId,
        state: JOB_STATE[job.status],
        startedAt: job.startedAt,
        finishedAt: job.finishedAt,
        exitCode: null,
        sprintId: job.sprintId
      }
    },

    'run.start-detached': async (params, principal) => {
      const p = checkParams<{ command: string; cwd?: string; env?: Record<string, string> }>(params, {
        command: { required: true, check: oneOf(START_COMMANDS) },
        cwd: {
          check: (v) =>
            typeof v === 'string' && path.resolve(deps.projectRoot, v) === deps.projectRoot
              ? null
              : 'must be the served project root (one project per server)'
        },
        env: {
          check: (v) =>
            stringRecord(v) ??
            (Object.keys(v as object).length === 0 ? null : "is not supported: the job runs with the server's environment")
        }
      })
      let started
      try {
        started = await deps.engine.start(principal, { owner: { tenantId: principal.tenantId }, resume: p.command === 'run --resume' })
      } catch (error) {
        translate(error)
      }
      return { runId: String(started.job.id), created: started.created, sprintId: started.job.sprintId, pid: started.pid }
    },

    'approval.list': async (params, principal) => {
      const { scopeId } = checkParams<{ scopeId?: string }>(params, { scopeId: { check: isString(200) } })
      return { approvals: await deps.approvals.list(principal.tenantId, scopeId) }
    },

    'approval.decide': async (params, principal) => {
      const p = checkParams<{
        requestId: string
        decision: ApprovalDecision
        decidedBy?: string
        reason?: string
        idempotencyKey?: string
      }>(params, {
        requestId: { required: true, check: isString(200) },
        decision: { required: true, check: oneOf(APPROVAL_DECISIONS) },
        // Accepted for compatibility; the decider recorded is always the verified principal.
        decidedBy: { check: isString(200) },
        reason: { check: (v) => (typeof v === 'string' && v.length <= 2000 ? null : 'must be a string of at most 2000 characters') },
        idempotencyKey: { check: isString(200) }
      })
      const outcome = await deps.approvals
        .decide(principal, p.requestId, {
          decision: p.decision,
          ...(p.reason !== undefined ? { reason: p.reason } : {}),
          ...(p.idempotencyKey !== undefined ? { idempotencyKey: p.idempotencyKey } : {})
        })
        .catch(translate)
      if (!outcome.ok && outcome.reason === 'not-found')
        throw new RpcFailure('NOT_FOUND', `approval request ${p.requestId} not found`, { requestId: p.requestId })
      if (!outcome.ok)
        throw new RpcFailure('CONFLICT', `approval request ${p.requestId} is not pending (${outcome.category}): ${outcome.why}`, {
          requestId: p.requestId,
          category: outcome.category,
          closure: outcome.closure
        })
      return { ok: true, decision: p.decision, idempotent: outcome.idempotent }
    },

    'limits.get': async (params) => {
      checkParams(params, {})
      return { limits: await deps.insight.limits().catch(translate) }
    }
  }
  return { handlers, notImplemented: new Set(['session.resume']) }
}
