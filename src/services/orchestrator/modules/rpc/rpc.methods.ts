/**
 * The RPC methods. Each validates its params strictly, authorises like its HTTP counterpart and
 * answers from the same services: run.start-detached is POST /api/start (control-gated),
 * approval.decide follows the approval decision route's gate and decides in the one approvals store
 * (a parked submission moves on inside that decision), limits.get is GET /api/limits.
 */
import path from 'node:path'
import { isAppError } from '../../../../core/errors/app-error.js'
import type { EngineService } from '../../engine/engine.service.js'
import { CONTROL_MUTATION_REFUSAL } from '../../gates/control.js'
import { loadProjectConfig } from '../../project/config.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import { usageLimits } from '../insight/limits.service.js'
import { APPROVAL_DECISIONS, type ApprovalDecision, type ApprovalRequests } from '../process/approvals-port.js'
import type { Principal } from '../process/principal.js'
import { checkParams, isString, oneOf, RpcFailure, stringRecord } from './rpc.envelope.js'

export interface RpcDeps {
  projectRoot: string
  projectId: number
  repositories: OrchestratorRepositories
  engine: EngineService
  approvals: ApprovalRequests
  controlMutations: () => boolean
  clock: () => Date
}

export const API_DECIDE_REFUSAL =
  'Approval decisions over the API are disabled: ' +
  'set `approval.api_decide: true` in .quartet/config.json (or decide with the approvals CLI).'
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
    // Quartet has no terminal sessions (no PTY manager), so the list is truly empty.
    'session.list': async (params) => {
      checkParams(params, {})
      return { sessions: [] }
    },

    'run.status': async (params) => {
      const { runId } = checkParams<{ runId: string }>(params, { runId: { required: true, check: isString(20) } })
      const job = RUN_ID.test(runId) ? await deps.repositories.jobs.get(Number(runId)) : undefined
      if (!job || job.project_id !== deps.projectId) throw new RpcFailure('NOT_FOUND', `no run ${runId} in this project`, { runId })
      return {
        runId,
        state: JOB_STATE[job.status as keyof typeof JOB_STATE] ?? 'failed',
        startedAt: job.started_at,
        finishedAt: job.finished_at,
        exitCode: null,
        sprintId: job.sprint_id
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
      if (!deps.controlMutations()) throw new RpcFailure('FORBIDDEN', CONTROL_MUTATION_REFUSAL, { gate: 'api.control_mutations' })
      let started
      try {
        started = await deps.engine.start({ owner: { tenantId: principal.tenantId }, resume: p.command === 'run --resume' })
      } catch (error) {
        translate(error)
      }
      return { runId: String(started.job.id), created: started.created, sprintId: started.job.sprint_id, pid: started.pid }
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
      if (loadProjectConfig(deps.projectRoot).config.approval.api_decide !== true)
        throw new RpcFailure('FORBIDDEN', API_DECIDE_REFUSAL, { gate: 'approval.api_decide' })
      const outcome = await deps.approvals.decide(principal.tenantId, p.requestId, {
        decision: p.decision,
        decidedBy: principal.actor,
        ...(p.reason !== undefined ? { reason: p.reason } : {}),
        ...(p.idempotencyKey !== undefined ? { idempotencyKey: p.idempotencyKey } : {})
      })
      if (!outcome.ok && outcome.reason === 'not-found')
        throw new RpcFailure('NOT_FOUND', `approval request ${p.requestId} not found`, { requestId: p.requestId })
      if (!outcome.ok)
        throw new RpcFailure('CONFLICT', `approval request ${p.requestId} is not pending (${outcome.category})`, {
          requestId: p.requestId,
          category: outcome.category
        })
      return { ok: true, decision: p.decision, idempotent: outcome.idempotent }
    },

    'limits.get': async (params) => {
      checkParams(params, {})
      return { limits: await usageLimits(deps.repositories, deps.projectId, loadProjectConfig(deps.projectRoot).config, deps.clock()) }
    }
  }
  return { handlers, notImplemented: new Set(['session.resume']) }
}
