/**
 * Missions (docs/orchestrator.md#missions): one per process submission or started run, shown as a MissionView with
 * its item's live status and progress read from the execution, job and sprint. Tenant-scoped:
 * another tenant's mission is "not found", never "forbidden". Runs are recorded by the engine as
 * it starts them (engine.service.ts), so no entry point records, or forgets, one.
 */
import type { RunControl } from '../../engine/run-control.js'
import { orchestratorError } from '../../errors.js'
import type { Principal } from '../../principal.js'
import type { Mission } from '../../state/domain.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import type { ApprovalRequests } from '../submissions/approval-requests.js'
import { executionView, sprintProgress, type ExecutionStatus, type LastResult } from '../submissions/execution-view.js'
import { decodeCursor, encodeCursor } from './missions.cursor.js'
import { MISSION_PAGE } from './missions.schemas.js'

export interface MissionsDeps {
  projectId: number
  repositories: Pick<OrchestratorRepositories, 'missions' | 'jobs' | 'tasks' | 'executions'>
  runControl: Pick<RunControl, 'reconcile'>
  approvals: ApprovalRequests
}

type ItemKind = 'task' | 'sprint' | 'capability' | 'process'
type MissionStatus = 'pending' | 'active' | 'completed' | 'failed' | 'cancelled'
interface ItemState {
  status: ExecutionStatus
  progress: { done: number; total: number }
  lastResult: LastResult | null
  cancelled: boolean
}

const RENDER_ITEM = { task: 'task', sprint: 'sprint', process: 'workflow', capability: 'action' } as const
const MISSION_STATUS: Record<ExecutionStatus, MissionStatus> = {
  pending: 'pending',
  parked: 'pending',
  running: 'active',
  done: 'completed',
  failed: 'failed'
}

export function createMissionsService(deps: MissionsDeps) {
  const repos = deps.repositories

  // Callers reconcile the project's run once before rendering, so a dead job never shows as running.
  async function runState(mission: Mission): Promise<ItemState> {
    if (mission.jobId === null || mission.sprintId === null)
      return { status: 'pending', progress: { done: 0, total: 0 }, lastResult: null, cancelled: false }
    const job = await repos.jobs.get(mission.jobId)
    const p = await sprintProgress(repos, mission.sprintId)
    const progress = { done: p.done, total: p.total }
    if (!job)
      return {
        status: 'failed',
        progress,
        lastResult: { ok: false, reason: `its job ${mission.jobId} is missing`, settleDetail: 'failed' },
        cancelled: false
      }
    if (job.status === 'queued' || job.status === 'running') return { status: 'running', progress, lastResult: null, cancelled: false }
    if (job.status === 'completed' && p.total > 0 && p.done === p.total)
      return { status: 'done', progress, lastResult: { ok: true, settleDetail: 'done' }, cancelled: false }
    const reason = `${p.done} of ${p.total} tasks DONE, job ${job.status}${job.error ? `: ${job.error}` : ''}`
    return {
      status: 'failed',
      progress,
      lastResult: { ok: false, reason, settleDetail: p.done > 0 ? 'debt' : 'failed' },
      cancelled: job.status === 'killed'
    }
  }

  async function itemState(mission: Mission, principal: Principal): Promise<ItemState> {
    if (mission.executionId === null) return runState(mission)
    const row = await repos.executions.get(deps.projectId, principal.tenantId, mission.executionId)
    if (!row)
      return {
        status: 'failed',
        progress: { done: 0, total: 0 },
        lastResult: { ok: false, reason: 'its execution record is missing' },
        cancelled: false
      }
    const approval = row.approvalId ? await deps.approvals.get(row.tenantId, row.approvalId) : null
    const view = await executionView(deps, row, approval, { reconciled: true })
    const killed = view.status === 'failed' && view.jobId !== null && (await repos.jobs.get(view.jobId))?.status === 'killed'
    return { status: view.status, progress: view.progress, lastResult: view.lastResult, cancelled: killed }
  }

  async function render(mission: Mission, principal: Principal) {
    const state = await itemState(mission, principal)
    const kind = mission.kind as ItemKind
    return {
      id: mission.id,
      renderAs: kind === 'process' ? ('checklist' as const) : ('goal' as const),
      status: state.cancelled ? ('cancelled' as const) : MISSION_STATUS[state.status],
      title: mission.title,
      progress: state.progress,
      deliverTo: null,
      lastResult: state.lastResult,
      items: [
        {
          id: mission.executionId ?? `job-${mission.jobId ?? 0}`,
          kind,
          status: state.status,
          renderAs: RENDER_ITEM[kind],
          progress: state.progress
        }
      ],
      createdAt: mission.createdAt
    }
  }

  return {
    /** One page, newest first; nextCursor continues after its last mission (null on the last page). */
    async list(principal: Principal, query: { limit?: number; cursor?: string } = {}) {
      const limit = query.limit ?? MISSION_PAGE.defaultLimit
      const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
      // One row more than the page tells whether another page follows without a second query.
      const rows = await repos.missions.list(deps.projectId, principal.tenantId, { limit: limit + 1, ...(before ? { before } : {}) })
      const page = rows.slice(0, limit)
      if (page.length > 0) await deps.runControl.reconcile(deps.projectId)
      const last = page.at(-1)
      return {
        missions: await Promise.all(page.map((row) => render(row, principal))),
        nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null
      }
    },

    async get(principal: Principal, id: string) {
      const row = await repos.missions.get(deps.projectId, principal.tenantId, id)
      if (!row) throw orchestratorError('ORCH_MISSION_NOT_FOUND')
      await deps.runControl.reconcile(deps.projectId)
      return render(row, principal)
    }
  }
}
export type MissionsService = ReturnType<typeof createMissionsService>
