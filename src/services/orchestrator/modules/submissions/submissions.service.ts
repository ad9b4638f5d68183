/**
 * Process submissions (docs/orchestrator.md#process-submission-and-missions): stamp identity from the principal, classify the effect, then
 * start the work on the engine or park it behind an approval request. A remote caller's
 * submission starts a run only while control mutations are enabled; otherwise it is parked for a
 * human like any other that needs approval. Every submission is also a mission. Reads are scoped
 * to the caller's tenant; another tenant's execution is "not found".
 */
import type { EngineService } from '../../engine/engine.service.js'
import type { RunControl } from '../../engine/run-control.js'
import { orchestratorError } from '../../errors.js'
import type { AccessPolicy } from '../../policy.js'
import type { Principal } from '../../principal.js'
import type { ProjectConfigSource } from '../../project/config-source.js'
import type { CapabilityTarget, ExecutionStatus, SubmissionRequest } from '../../state/domain.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import type { ApprovalRequests } from './approval-requests.js'
import { classify, decide, riskOf, type EffectClass } from './effect-policy.js'
import { executionView, type ExecutionView } from './execution-view.js'
import { capabilityFailure, createRunStarter, titleOf, type ExecutionKind } from './run-starter.js'

export interface SubmissionsDeps {
  projectId: number
  repositories: Pick<OrchestratorRepositories, 'executions' | 'missions' | 'jobs' | 'tasks'>
  runControl: Pick<RunControl, 'reconcile'>
  engine: Pick<EngineService, 'plan' | 'start'>
  approvals: ApprovalRequests
  config: ProjectConfigSource
  policy: Pick<AccessPolicy, 'controlMutationsEnabled'>
  clock: () => Date
  /** 6 random base36 characters. */
  randomSuffix: () => string
}

export interface SubmitInput {
  description: string
  kind?: ExecutionKind | undefined
  /** A capability name, or `{capability, connector}` as the original's clients send it. */
  capabilityTarget?: string | CapabilityTarget | undefined
  steps?: string[] | undefined
  scopeDir?: string | undefined
  processRef?: string | undefined
}

export type SubmitAnswer =
  | { executionId: string; missionId: string; status: 'running'; sprintId: string; jobId: number; effectClass: string }
  | { executionId: string; missionId: string; status: 'pending-approval'; reason: string; approvalId: string; effectClass: string }
  | { executionId: string; missionId: string; status: 'failed'; reason: string; effectClass: string }

export function createSubmissionsService(deps: SubmissionsDeps) {
  const repos = deps.repositories
  const executor = createRunStarter(deps)
  const newId = (prefix: string) => `${prefix}-${deps.clock().getTime().toString(36)}-${deps.randomSuffix()}`

  /** Why the submission must wait for a human, or null when it may go ahead now. */
  function parkReason(caller: Principal, request: SubmissionRequest, effectClass: EffectClass, because: string): string | null {
    if (decide(deps.config.current().process.policy, effectClass) === 'park')
      return `effect class ${effectClass} (${because}) needs an approval`
    // A capability starts no run (it has no connector), so only run-starting kinds meet the control switch.
    if (request.kind !== 'capability' && caller.channel === 'api' && !deps.policy.controlMutationsEnabled()) {
      return 'control mutations are off (api.control_mutations), so a run started over the API needs an approval'
    }
    return null
  }

  function normalise(input: SubmitInput, principal: Principal, origin: SubmissionRequest['origin']): SubmissionRequest {
    if (input.processRef !== undefined)
      throw orchestratorError('VALIDATION_FAILED', 'processRef is not supported: pass the process steps inline in "steps"')
    if (input.description.trim() === '') throw orchestratorError('VALIDATION_FAILED', 'description (string) is required')
    const kind: ExecutionKind = input.kind ?? (input.capabilityTarget !== undefined ? 'capability' : 'task')
    if (kind === 'process' && (input.steps === undefined || input.steps.length === 0))
      throw orchestratorError('VALIDATION_FAILED', 'a process needs "steps": one task description per step')
    if (input.steps?.some((step) => step.trim() === '')) throw orchestratorError('VALIDATION_FAILED', 'every step must describe a task')
    if (input.scopeDir !== undefined && (input.scopeDir.startsWith('/') || input.scopeDir.split('/').includes('..')))
      throw orchestratorError('VALIDATION_FAILED', 'scopeDir must be a path inside the project')
    return {
      description: input.description,
      kind,
      ...(input.capabilityTarget !== undefined ? { capabilityTarget: targetOf(input.capabilityTarget) } : {}),
      ...(kind === 'process' ? { steps: input.steps! } : {}),
      ...(input.scopeDir !== undefined ? { scopeDir: input.scopeDir } : {}),
      actor: principal.id,
      tenant: principal.tenantId,
      origin
    }
  }

  async function record(
    id: string,
    request: SubmissionRequest,
    effectClass: string,
    status: ExecutionStatus,
    reason: string | null,
    approvalId: string | null
  ) {
    const title = titleOf(request.description)
    await repos.executions.create({
      id,
      projectId: deps.projectId,
      tenantId: request.tenant,
      actor: request.actor,
      origin: request.origin,
      kind: request.kind,
      title,
      request,
      effectClass,
      status,
      reason,
      approvalId
    })
    const mission = await repos.missions.create({
      id: newId('mis'),
      projectId: deps.projectId,
      tenantId: request.tenant,
      title,
      source: 'submission',
      kind: request.kind,
      executionId: id
    })
    return mission.id
  }

  async function visible(principal: Principal, id: string) {
    const row = await repos.executions.get(deps.projectId, principal.tenantId, id)
    if (!row) throw orchestratorError('ORCH_EXECUTION_NOT_FOUND')
    return row
  }

  return {
    async submit(input: SubmitInput, principal: Principal, origin: SubmissionRequest['origin'] = 'api'): Promise<SubmitAnswer> {
      const request = normalise(input, principal, origin)
      const { effectClass, because } = classify(request)
      const executionId = newId('proc')

      const reason = parkReason(principal, request, effectClass, because)
      if (reason !== null) {
        const approval = await deps.approvals.create({
          tenantId: request.tenant,
          scopeId: executionId,
          summary: `process submission: ${titleOf(request.description)}`,
          risk: riskOf(effectClass),
          details: {
            executionId,
            kind: request.kind,
            description: request.description,
            ...(request.steps ? { steps: request.steps } : {}),
            ...(request.capabilityTarget ? { capabilityTarget: request.capabilityTarget } : {}),
            effectClass
          },
          requestedBy: request.actor
        })
        const missionId = await record(executionId, request, effectClass, 'parked', reason, approval.id)
        return { executionId, missionId, status: 'pending-approval', reason, approvalId: approval.id, effectClass }
      }

      if (request.kind === 'capability') {
        const reason = capabilityFailure(request.capabilityTarget)
        const missionId = await record(executionId, request, effectClass, 'failed', reason, null)
        return { executionId, missionId, status: 'failed', reason, effectClass }
      }

      const busy = await executor.busy()
      if (busy) throw orchestratorError('ORCH_RUN_ACTIVE', `A run is active: ${busy}. Submit again when it has ended.`)
      const planned = await executor.plan(request)
      const missionId = await record(executionId, request, effectClass, 'pending', null, null)
      return { ...(await dispatch(executionId, planned.sprintId, 'pending')), missionId, effectClass } as SubmitAnswer
    },

    async view(principal: Principal, id: string): Promise<ExecutionView> {
      const row = await visible(principal, id)
      const approval = row.approvalId ? await deps.approvals.get(row.tenantId, row.approvalId) : null
      return executionView(deps, row, approval)
    },

    /**
     * Moves a parked submission on once its approval is closed: an allow (or an expiry whose
     * default action is allow) starts it, anything else fails it. The approvals service calls this
     * for every request it closes, whichever channel decided; `settleParked` catches up with
     * decisions taken in another process (the CLI).
     */
    async settleApproval(tenantId: string, approvalId: string): Promise<void> {
      const row = await repos.executions.byApproval(deps.projectId, approvalId)
      if (!row || row.status !== 'parked' || row.tenantId !== tenantId) return
      const approval = await deps.approvals.get(tenantId, approvalId)
      // Only a recorded decision moves it: a due request is first closed by the sweep or a waiter, which calls here again.
      if (!approval || approval.decision === null) return
      if (approval.effect === 'deny') {
        const reason =
          approval.category === 'expired'
            ? `approval request ${approvalId} expired undecided`
            : `approval request ${approvalId} was decided "${approval.decision?.decision}" by ${approval.decision?.decidedBy}`
        await repos.executions.update(row.id, { status: 'failed', reason }, 'parked')
        return
      }
      const request = row.request
      // Only one decider moves the row from parked; the others see it moved and stop.
      if (!(await repos.executions.update(row.id, { status: 'pending', reason: null }, 'parked'))) return
      if (request.kind === 'capability') {
        await repos.executions.update(row.id, { status: 'failed', reason: capabilityFailure(request.capabilityTarget) })
        return
      }
      const busy = await executor.busy()
      if (busy) {
        await repos.executions.update(row.id, { status: 'failed', reason: `approved, but ${busy}` })
        return
      }
      let sprintId: string
      try {
        sprintId = (await executor.plan(request)).sprintId
      } catch (error) {
        await repos.executions.update(row.id, {
          status: 'failed',
          reason: `planning failed: ${error instanceof Error ? error.message : String(error)}`
        })
        return
      }
      await dispatch(row.id, sprintId, 'pending')
    },

    /** Settles every parked submission of the project whose request is already closed; answers how many were looked at. */
    async settleParked(): Promise<number> {
      const parked = await repos.executions.listParked(deps.projectId)
      for (const row of parked) if (row.approvalId) await this.settleApproval(row.tenantId, row.approvalId)
      return parked.length
    }
  }

  async function dispatch(executionId: string, sprintId: string, from: ExecutionStatus) {
    await repos.executions.update(executionId, { sprintId }, from)
    const started = await executor.start(executionId, sprintId)
    if ('failed' in started) {
      await repos.executions.update(executionId, { status: 'failed', reason: started.failed })
      return { executionId, status: 'failed' as const, reason: started.failed }
    }
    await repos.executions.update(executionId, { status: 'running', jobId: started.jobId })
    return { executionId, status: 'running' as const, sprintId, jobId: started.jobId }
  }
}
export type SubmissionsService = ReturnType<typeof createSubmissionsService>

function targetOf(input: string | CapabilityTarget): CapabilityTarget {
  const capability = typeof input === 'string' ? input : input.capability
  if (capability.trim() === '') throw orchestratorError('VALIDATION_FAILED', 'capabilityTarget.capability must name a capability')
  return typeof input !== 'string' && input.connector !== undefined ? { capability, connector: input.connector } : { capability }
}
