/**
 * Guided run flows: an intent is planned into a sprint, approved for its exact plan (revision +
 * planDigest), started once as a detached job (a mission of the caller's tenant), and followed
 * to its end. All state is in the database (state/run-flows.repository.ts), so any process
 * rebuilds it; a running flow is reconciled with its job on every read, so a flow whose job
 * ended is never shown as running.
 */
import path from 'node:path'
import type { EngineService } from '../../engine/engine.service.js'
import type { Git } from '../../engine/git.js'
import type { RunControl } from '../../engine/run-control.js'
import { isAppError } from '../../../../core/errors/app-error.js'
import { orchestratorError } from '../../errors.js'
import type { Principal } from '../../principal.js'
import type { ProjectConfigSource } from '../../project/config-source.js'
import type { Task } from '../../state/domain.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import {
  TERMINAL_FLOW_STATES,
  type FlowEvent,
  type FlowState,
  type FlowSummary,
  type RunFlow,
  type RunFlowsRepository
} from '../../state/run-flows.repository.js'
import { conflict, duplicate, startedAlready } from './flow-answers.js'
import { actualFootprint, plannedFootprint, type Footprint } from './footprint.js'
import { actorOf, directiveOf } from './flow-intent.js'
import { planDigestOf, previewOf } from './plan-digest.js'
import { decodeCursor, encodeCursor } from './list-cursor.js'

export const RUN_FLOW_FLAG = 'terminal.run_flow_v2'
export const FLOW_ID = /^[A-Za-z0-9_-]{1,128}$/
/** A STARTING flow with no job after this long was interrupted (the server stopped mid-start). */
const START_STALE_MS = 30_000

export interface RunFlowsDeps {
  projectId: number
  projectRoot: string
  repositories: Pick<OrchestratorRepositories, 'sprints' | 'tasks' | 'jobs' | 'missions'> & { runFlows: RunFlowsRepository }
  engine: Pick<EngineService, 'plan' | 'start'>
  runControl: Pick<RunControl, 'reconcile' | 'killJob'>
  config: ProjectConfigSource
  git: Git
  clock: () => Date
  newFlowId(): string
  newAttemptId(): string
}

export interface ListPage {
  limit: number
  cursor?: string
}
export interface FlowListPage {
  flows: FlowSummary[]
  nextCursor: string | null
}

export function createRunFlowsService(deps: RunFlowsDeps) {
  const { projectId, repositories: repos } = deps
  const flows = repos.runFlows

  function assertEnabled(): void {
    if (deps.config.current().terminal.run_flow_v2 !== true) throw orchestratorError('ORCH_RUN_FLOW_DISABLED')
  }

  function assertFlowId(flowId: string): void {
    if (!FLOW_ID.test(flowId)) throw orchestratorError('ORCH_FLOW_INVALID_ID')
  }

  /** The caller's flow, reconciled with its job; another tenant's flow is not found, like an unknown one. */
  async function load(caller: Principal, flowId: string): Promise<RunFlow> {
    assertEnabled()
    assertFlowId(flowId)
    const flow = await flows.get(projectId, flowId)
    if (!flow || flow.tenantId !== caller.tenantId) throw orchestratorError('ORCH_FLOW_NOT_FOUND')
    return reconcile(flow)
  }

  async function sprintTasks(flow: RunFlow): Promise<Task[]> {
    return flow.sprintId === null ? [] : repos.tasks.listBySprint(flow.sprintId)
  }

  /** The plan as stored now must still be the one previewed (nobody re-planned or started it meanwhile). */
  async function assertPlanUnchanged(flow: RunFlow): Promise<void> {
    const sprint = flow.sprintId === null ? undefined : await repos.sprints.get(flow.sprintId)
    if (!sprint || sprint.status !== 'PLANNED') {
      throw conflict(flow, `the flow's planned sprint is ${sprint ? sprint.status : 'gone'}: propose the intent again`)
    }
    if (planDigestOf(await sprintTasks(flow)) !== flow.planDigest) throw conflict(flow, 'the stored plan no longer matches its digest')
  }

  /** Moves a flow whose job ended (or whose start was interrupted) to its final state. */
  async function reconcile(flow: RunFlow): Promise<RunFlow> {
    if (flow.state !== 'DETACHED_RUNNING' && flow.state !== 'STARTING') return flow
    if (flow.jobId === null) {
      const latest = await repos.jobs.latest(projectId)
      if (latest && flow.sprintId !== null && latest.sprintId === flow.sprintId) {
        const missionId = (await repos.missions.byJob(projectId, flow.tenantId, latest.id))?.id ?? null
        const adopted = await flows.transition(flow.flowId, {
          from: ['STARTING'],
          to: 'DETACHED_RUNNING',
          change: { jobId: latest.id, missionId },
          events: [{ type: 'RUN_STARTED', data: { handle: handleOf(flow.flowId, latest.id), missionId } }]
        })
        return reconcile(adopted ?? (await reread(flow)))
      }
      if (deps.clock().getTime() - Date.parse(flow.updatedAt) < START_STALE_MS) return flow
      const failed = await flows.transition(flow.flowId, {
        from: ['STARTING'],
        to: 'FAILED',
        change: { failureReason: 'the start was interrupted before a job existed' },
        events: [{ type: 'RUN_FAILED', data: { error: 'the start was interrupted before a job existed' } }]
      })
      return failed ?? reread(flow)
    }
    let job = await repos.jobs.get(flow.jobId)
    if (job?.active) {
      await deps.runControl.reconcile(projectId)
      job = await repos.jobs.get(flow.jobId)
    }
    if (!job || job.active) return flow
    const counts = await repos.tasks.countByStatus(job.sprintId)
    const total = Object.values(counts).reduce((n, c) => n + (c ?? 0), 0)
    const done = counts.DONE ?? 0
    // A job that ran to its end with tasks that did not pass is a failed flow: its work is not all there.
    const error =
      job.status !== 'completed'
        ? (job.error ?? `job ${job.id} ended ${job.status}`)
        : done < total
          ? `${total - done} of ${total} task(s) did not pass`
          : null
    const summary = { jobId: job.id, status: job.status, finishedAt: job.finishedAt, tasks: total, done }
    const ended = await flows.transition(flow.flowId, {
      from: ['DETACHED_RUNNING', 'STARTING'],
      to: error === null ? 'COMPLETED' : 'FAILED',
      change: error === null ? {} : { failureReason: error },
      events: [error === null ? { type: 'RUN_COMPLETED', data: { summary } } : { type: 'RUN_FAILED', data: { error, summary } }]
    })
    return ended ?? reread(flow)
  }

  async function reread(flow: RunFlow): Promise<RunFlow> {
    return (await flows.get(projectId, flow.flowId)) ?? flow
  }

  /** The caller's flows that were starting or running, moved on if their job ended. */
  async function reconcileRunning(caller: Principal): Promise<void> {
    for (const flow of await flows.inStates(projectId, ['STARTING', 'DETACHED_RUNNING'])) {
      if (flow.tenantId === caller.tenantId) await reconcile(flow)
    }
  }

  async function listPage(caller: Principal, page: ListPage): Promise<FlowListPage> {
    const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor)
    const found = await flows.summaries(projectId, caller.tenantId, { limit: page.limit, ...(after ? { after } : {}) })
    const last = found.flows.at(-1)
    return { flows: found.flows, nextCursor: found.more && last ? encodeCursor(last) : null }
  }

  function handleOf(flowId: string, jobId: number) {
    return { flowId, jobId, logRef: `/api/job/${jobId}` }
  }

  /**
   * A flow cancelled or rejected before its job ran: its sprint ends ABORTED and its tasks
   * CANCELLED as abandoned — the user gave the flow up, so nothing of it is left to resume (a
   * resumable sprint would refuse the next plan).
   */
  async function abortSprint(flow: RunFlow, reason: string): Promise<void> {
    if (flow.sprintId === null) return
    const finishedAt = deps.clock().toISOString()
    await repos.tasks.transitionAll(flow.sprintId, 'CANCELLED', {
      from: ['PENDING', 'ORPHANED'],
      reason: `abandoned: ${reason}`,
      finishedAt
    })
    await repos.sprints.setStatus(flow.sprintId, 'ABORTED', { stopReason: reason, finishedAt, from: ['PLANNED'] })
  }

  return {
    assertEnabled,
    assertFlowId,

    async propose(caller: Principal, input: { intentSummary: string }): Promise<RunFlow> {
      assertEnabled()
      let planned
      try {
        planned = await deps.engine.plan(caller, { directive: directiveOf(input.intentSummary) })
      } catch (error) {
        if (isAppError(error) && (error.code === 'ORCH_PLAN_INVALID' || error.code === 'ORCH_PROVIDER_UNAVAILABLE')) {
          throw orchestratorError('ORCH_FLOW_PLANNER_FAILED', `planning failed: ${error.message}`, { cause: error })
        }
        throw error
      }
      const flowId = deps.newFlowId()
      const revision = 1
      const proposal = {
        flowId,
        tenant: caller.tenantId,
        project: path.basename(deps.projectRoot),
        actor: actorOf(caller),
        origin: caller.channel === 'cli' ? ('cli' as const) : ('api' as const),
        revision,
        intentSummary: input.intentSummary
      }
      const preview = previewOf({ flowId, revision, tasks: planned.tasks, warnings: planned.warnings })
      return flows.create(
        {
          flowId,
          projectId,
          tenantId: caller.tenantId,
          intentSummary: input.intentSummary,
          proposal,
          preview,
          sprintId: planned.sprint.id
        },
        [
          { type: 'PROPOSAL_SUBMITTED', data: { proposal } },
          { type: 'PREVIEW_STARTED', data: { revision } },
          { type: 'PREVIEW_READY', data: { preview } }
        ]
      )
    },

    /**
     * The version of the caller's flow list, read after reconciling the flows that were running
     * (whose job may have ended with nothing written yet): equal versions mean an equal list.
     */
    async listRevision(caller: Principal): Promise<string> {
      assertEnabled()
      const read = await flows.listRevision(projectId, caller.tenantId)
      if (read.running === 0) return read.revision
      await reconcileRunning(caller)
      return (await flows.listRevision(projectId, caller.tenantId)).revision
    },

    /** One page of the caller's flows, newest first, as stored: read listRevision first (it reconciles). */
    listPage,

    get: load,

    async preview(caller: Principal, flowId: string) {
      const flow = await load(caller, flowId)
      if (!flow.preview) throw orchestratorError('ORCH_FLOW_NOT_FOUND', 'Flow has no preview')
      return flow.preview
    },

    async diff(caller: Principal, flowId: string): Promise<Footprint & { flowId: string; state: FlowState }> {
      const flow = await load(caller, flowId)
      const tasks = await sprintTasks(flow)
      const started = flow.jobId !== null
      const footprint = started ? await actualFootprint(deps.git, deps.projectRoot, tasks) : plannedFootprint(tasks)
      return { flowId: flow.flowId, state: flow.state, ...footprint }
    },

    async decide(
      caller: Principal,
      flowId: string,
      input: { decision: 'approve' | 'reject'; reason?: string; revision?: number; planDigest?: string }
    ): Promise<RunFlow> {
      const flow = await load(caller, flowId)
      if (flow.state !== 'AWAITING_APPROVAL') throw conflict(flow, 'only a flow awaiting approval can be decided')
      if (input.revision !== undefined && input.revision !== flow.revision) {
        throw conflict(flow, `revision ${input.revision} is stale: the current revision is ${flow.revision}`)
      }
      if (input.planDigest !== undefined && input.planDigest !== flow.planDigest) {
        throw conflict(flow, 'the planDigest does not match the current plan')
      }
      let moved: RunFlow | undefined
      if (input.decision === 'approve') {
        await assertPlanUnchanged(flow)
        const approvedBy = actorOf(caller)
        const snapshot = {
          flowId,
          revision: flow.revision,
          planDigest: flow.planDigest!,
          approvedBy,
          approvedAt: deps.clock().toISOString()
        }
        moved = await flows.transition(flowId, {
          from: ['AWAITING_APPROVAL'],
          to: 'APPROVED',
          change: { approved: snapshot },
          events: [{ type: 'APPROVAL_GRANTED', data: { revision: flow.revision, planDigest: flow.planDigest, approvedBy } }]
        })
      } else {
        moved = await flows.transition(flowId, {
          from: ['AWAITING_APPROVAL'],
          to: 'CANCELLED',
          change: { cancelReason: 'rejected' },
          events: [{ type: 'APPROVAL_REJECTED', data: { revision: flow.revision, ...(input.reason ? { reason: input.reason } : {}) } }]
        })
        if (moved) await abortSprint(moved, 'plan rejected')
      }
      if (!moved) throw conflict(await reread(flow), 'the flow was decided by another request')
      return moved
    },

    async start(
      caller: Principal,
      flowId: string
    ): Promise<{ accepted: boolean; started: boolean; duplicate: boolean; attemptId: string | null; context: RunFlow }> {
      const flow = await load(caller, flowId)
      if (startedAlready(flow)) return duplicate(flow)
      if (flow.state !== 'APPROVED') throw conflict(flow, 'only an approved flow can be started')
      try {
        await assertPlanUnchanged(flow)
        const busy = await repos.jobs.active(projectId)
        if (busy)
          throw orchestratorError('ORCH_RUN_ACTIVE', `job ${busy.id} (sprint ${busy.sprintId}) is running: one run per project at a time`)
      } catch (error) {
        // A racing start of this flow may have begun its run since we read it: that is a duplicate, not a conflict.
        const now = await reread(flow)
        if (startedAlready(now)) return duplicate(now)
        throw error
      }
      const attemptId = deps.newAttemptId()
      const starting = await flows.transition(flowId, {
        from: ['APPROVED'],
        to: 'STARTING',
        change: { attemptId },
        events: [{ type: 'START_REQUESTED', data: { revision: flow.revision, planDigest: flow.planDigest, attemptId } }]
      })
      if (!starting) {
        const now = await reread(flow)
        if (startedAlready(now)) return duplicate(now)
        throw conflict(now, 'only an approved flow can be started')
      }
      let run
      try {
        run = await deps.engine.start(caller, { owner: { tenantId: flow.tenantId }, sprintId: flow.sprintId! })
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error)
        await flows.transition(flowId, {
          from: ['STARTING'],
          to: 'FAILED',
          change: { failureReason: why },
          events: [{ type: 'RUN_FAILED', data: { error: why } }]
        })
        throw error
      }
      if (!run.created || run.job.sprintId !== flow.sprintId) {
        const why = `another run started first (job ${run.job.id}, sprint ${run.job.sprintId})`
        await flows.transition(flowId, {
          from: ['STARTING'],
          to: 'FAILED',
          change: { failureReason: why },
          events: [{ type: 'RUN_FAILED', data: { error: why } }]
        })
        throw orchestratorError('ORCH_RUN_ACTIVE', why)
      }
      const moved = await flows.transition(flowId, {
        from: ['STARTING'],
        to: 'DETACHED_RUNNING',
        change: { jobId: run.job.id, missionId: run.missionId },
        events: [{ type: 'RUN_STARTED', data: { handle: handleOf(flowId, run.job.id), missionId: run.missionId } }]
      })
      // Not moved: a read adopted the job first (see reconcile), and the flow runs it all the same, or it was cancelled.
      const now = moved ?? (await reread(flow))
      const ours = now.jobId === run.job.id && now.state !== 'CANCELLED'
      // Cancelled while the job was being launched: the cancel could not see the job, so stop it here.
      if (!ours && (await repos.jobs.active(projectId))?.id === run.job.id) await deps.runControl.killJob(projectId)
      return { accepted: true, started: ours, duplicate: false, attemptId, context: ours ? now : await reread(flow) }
    },

    async cancel(caller: Principal, flowId: string, input: { reason?: string }): Promise<{ context: RunFlow; note?: string }> {
      const flow = await load(caller, flowId)
      if (TERMINAL_FLOW_STATES.includes(flow.state)) throw conflict(flow, 'the flow has already ended')
      const cancelled = await flows.transition(flowId, {
        from: ['COLLECTING', 'PROPOSAL_READY', 'PREVIEWING', 'AWAITING_APPROVAL', 'APPROVED', 'STARTING', 'DETACHED_RUNNING'],
        to: 'CANCELLED',
        change: { cancelReason: 'aborted' },
        events: [{ type: 'FLOW_ABORTED', data: input.reason ? { reason: input.reason } : {} }]
      })
      if (!cancelled) throw conflict(await reread(flow), 'the flow changed meanwhile')
      if (cancelled.jobId === null) {
        await abortSprint(cancelled, 'flow cancelled')
        return { context: cancelled }
      }
      const active = await repos.jobs.active(projectId)
      if (active?.id !== cancelled.jobId) return { context: cancelled, note: `the flow's job ${cancelled.jobId} had already ended` }
      const killed = await deps.runControl.killJob(projectId)
      return { context: cancelled, note: `stopped the flow's job ${cancelled.jobId} (${killed.cancelledTasks.length} task(s) cancelled)` }
    },

    /** The flow's events after a sequence (the caller checked the flow: see `load`). */
    async eventsAfter(flow: RunFlow, after: number): Promise<{ flow: RunFlow; events: FlowEvent[] }> {
      const current = await reconcile((await flows.get(projectId, flow.flowId)) ?? flow)
      return { flow: current, events: await flows.events(flow.flowId, after) }
    }
  }
}
export type RunFlowsService = ReturnType<typeof createRunFlowsService>
