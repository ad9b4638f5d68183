import type { Progress, RunControl } from '../../engine/run-control.js'
import { orchestratorError } from '../../errors.js'
import type { Job, Sprint } from '../../state/domain.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import { isActiveTask, lastAttemptByTask, toHeartbeatView } from '../tasks/tasks.render.js'
import { sprintDurationMs, sprintMetrics, taskBullets } from './sprint-summary.js'

export interface StatusDeps {
  projectId: number
  repositories: Pick<OrchestratorRepositories, 'events' | 'heartbeats' | 'tasks' | 'sprints' | 'attempts' | 'jobs'>
  runControl: Pick<RunControl, 'reconcile' | 'statusView' | 'jobView'>
  clock: () => Date
}
type StatusView = Awaited<ReturnType<RunControl['statusView']>>

export interface Alert {
  level: 'INFO' | 'WARNING' | 'CRITICAL'
  code: string
  message: string
  source: string
  timestamp: string
}

const JOB_ID = /^\d{1,15}$/
const NO_PROGRESS: Progress = { done: 0, active: 0, blocked: 0, noGo: 0, pending: 0, orphaned: 0, cancelled: 0, total: 0 }

/**
 * Status, sprint summary, history, the live run view and jobs. Every answer is read from the
 * database after the run was reconciled against its processes, so a dead job never shows as running.
 */
export function createStatusService(deps: StatusDeps) {
  const repos = deps.repositories
  const { projectId } = deps

  /** Grows whenever the run changes: every event and every heartbeat raise it. */
  async function revision(): Promise<number> {
    const [seq, beats] = await Promise.all([repos.events.latestSeq(projectId), repos.heartbeats.sequenceTotal(projectId)])
    return seq + beats
  }

  async function sprintSummary(sprint: Sprint) {
    const tasks = await repos.tasks.listBySprint(sprint.id)
    const counts = await repos.tasks.countByStatus(sprint.id)
    return {
      id: sprint.id,
      title: sprint.title,
      status: sprint.status,
      metrics: sprintMetrics(sprint, counts, deps.clock()),
      tasks: taskBullets(tasks)
    }
  }

  async function alertsFor(
    view: StatusView,
    agents: readonly { taskId: string; ageMs: number | null; stale: boolean }[]
  ): Promise<Alert[]> {
    const timestamp = view.updatedAt
    const alerts: Alert[] = []
    const sprint = view.sprint
    if (!sprint) return alerts
    if (view.lifecycle === 'ORPHANED') {
      alerts.push({
        level: 'CRITICAL',
        code: 'RUN_ORPHANED',
        source: 'reconcile',
        timestamp,
        message:
          `Sprint ${sprint.id} lost its job (${sprint.stopReason ?? 'job died'}).` +
          `${view.recoveryCommand ? ` Continue it with: ${view.recoveryCommand}` : ''}`
      })
    }
    if (sprint.status === 'ABORTED' && (await repos.events.latestOfType(projectId, sprint.id, 'budget_exceeded'))) {
      alerts.push({
        level: 'WARNING',
        code: 'BUDGET_STOP',
        source: 'budget',
        timestamp,
        message: `Sprint ${sprint.id} was stopped: ${sprint.stopReason ?? 'budget exceeded'}`
      })
    } else if (view.lifecycle === 'ABORTED' && view.resumable) {
      alerts.push({
        level: 'INFO',
        code: 'RUN_ABORTED',
        source: 'kill',
        timestamp,
        message: `Sprint ${sprint.id} was stopped (${sprint.stopReason ?? 'aborted'}). Continue it with: ${view.recoveryCommand}`
      })
    }
    for (const agent of agents.filter((a) => a.stale)) {
      alerts.push({
        level: 'WARNING',
        code: 'WORKER_STALE',
        source: 'heartbeat',
        timestamp,
        message: `Task ${agent.taskId} has not reported for ${Math.round((agent.ageMs ?? 0) / 1000)} s`
      })
    }
    return alerts
  }

  /** Tasks being worked on right now, with their latest heartbeat. */
  async function workingAgents(sprintId: string) {
    const now = deps.clock()
    const active = (await repos.tasks.listBySprint(sprintId)).filter((task) => isActiveTask(task.status))
    const agents = []
    for (const task of active) {
      const hb = await repos.heartbeats.get(task.id)
      const last = lastAttemptByTask(await repos.attempts.listForTask(task.id)).get(task.id)
      agents.push({
        taskId: task.id,
        title: task.title,
        taskStatus: task.status,
        agent: last?.agent ?? task.agent ?? null,
        // Recorded as soon as the attempt's worktree exists, so a running task shows where it works.
        branch: task.branch,
        worktree: task.worktree,
        ...(hb
          ? toHeartbeatView(hb, now)
          : {
              workerId: null,
              status: 'UNKNOWN',
              currentAction: '',
              filesChangedCount: 0,
              sequence: 0,
              timestamp: null,
              ageMs: null,
              stale: false
            })
      })
    }
    return agents
  }

  return {
    /** The revision after reconciling, so a job found dead raises it too (reconcile records an event). */
    async reconciledRevision(): Promise<number> {
      await deps.runControl.reconcile(projectId)
      return revision()
    },

    async status() {
      const view = await deps.runControl.statusView(projectId)
      const statusReadModel = { state: 'fresh' as const, source: 'database', revision: await revision() }
      const common = {
        lifecycle: view.lifecycle,
        active: view.active,
        resumable: view.resumable,
        recoveryCommand: view.recoveryCommand,
        statusReadModel,
        updatedAt: view.updatedAt
      }
      const sprint = view.sprint
      const idle = !view.active && !view.resumable && view.lifecycle !== 'ORPHANED'
      if (idle || !sprint) {
        const latest = sprint ? await repos.sprints.get(sprint.id) : undefined
        return {
          ...common,
          // Idle means no run; the last sprint's own state (COMPLETE, ABORTED …) is still what it is.
          sprint: { id: sprint?.id ?? null, phase: sprint?.status ?? 'IDLE', status: sprint ? view.lifecycle : 'IDLE' },
          agents: [],
          progress: view.progress ?? NO_PROGRESS,
          alerts: await alertsFor(view, []),
          idle: true,
          lastSprint: latest ? await sprintSummary(latest) : null
        }
      }
      const agents = await workingAgents(sprint.id)
      return {
        ...common,
        sprint: { id: sprint.id, number: sprint.number, title: sprint.title, phase: sprint.status, status: view.lifecycle },
        agents,
        progress: view.progress ?? NO_PROGRESS,
        job: view.job,
        usage: { tokensUsed: Number(sprint.tokensUsed), costUsd: Number(sprint.costMicroUsd) / 1e6 },
        alerts: await alertsFor(view, agents),
        idle: false
      }
    },

    /** The newest sprint as a sprint-log summary. */
    async sprint() {
      const sprint = await repos.sprints.latest(projectId)
      if (!sprint) throw orchestratorError('ORCH_SPRINT_NOT_FOUND', 'No sprint logs found')
      return sprintSummary(sprint)
    },

    /** Every sprint of the project, newest first, as history rows. */
    async history() {
      const now = deps.clock()
      const [sprints, counts, agents] = await Promise.all([
        repos.sprints.list(projectId),
        repos.tasks.countByStatusPerSprint(projectId),
        repos.attempts.agentsPerSprint(projectId)
      ])
      return sprints.map((sprint) => {
        const metrics = sprintMetrics(sprint, counts.get(sprint.id) ?? {}, now)
        const used = agents.get(sprint.id) ?? []
        return {
          id: sprint.id,
          sprint: sprint.title,
          number: sprint.number,
          status: sprint.status,
          ...metrics,
          agents: used.length > 0 ? used.join(', ') : '-',
          skills: '-',
          durationMs: sprintDurationMs(sprint, now),
          startedAt: sprint.startedAt,
          finishedAt: sprint.finishedAt,
          stopReason: sprint.stopReason,
          tokensUsed: sprint.tokensUsed,
          costUsd: sprint.costMicroUsd / 1e6
        }
      })
    },

    /** The run-inspector snapshot: canonical lifecycle, every task of the run with its heartbeat. */
    async live() {
      const view = await deps.runControl.statusView(projectId)
      const now = deps.clock()
      const sprint = view.sprint
      const rows = sprint ? await repos.tasks.listBySprint(sprint.id) : []
      const last = sprint ? lastAttemptByTask(await repos.attempts.listForSprint(sprint.id)) : new Map()
      const beats = new Map((sprint ? await repos.heartbeats.listForSprint(sprint.id) : []).map((hb) => [hb.taskId, hb]))
      const lifecycle = {
        schemaVersion: 1 as const,
        lifecycle: view.lifecycle,
        active: view.active,
        resumable: view.resumable,
        sprintId: sprint?.id ?? null,
        phase: sprint?.status ?? null,
        status: view.job?.status ?? view.lifecycle,
        reason: sprint?.stopReason ?? null,
        recoveryCommand: view.recoveryCommand,
        finalizeCommand: null,
        coordinator: view.active ? 'alive' : view.lifecycle === 'ORPHANED' ? 'dead' : 'absent',
        conflicts: []
      }
      const workers = rows.map((task) => {
        const attempt = last.get(task.id)
        const hb = beats.get(task.id)
        const beat = hb ? toHeartbeatView(hb, now) : null
        return {
          taskId: task.id,
          title: task.title,
          status: task.status,
          agent: task.agent ?? attempt?.agent ?? null,
          model: attempt?.model ?? null,
          filesWrite: task.files,
          hb: beat
            ? {
                status: beat.status,
                currentAction: beat.currentAction,
                currentFile: null,
                filesChangedCount: beat.filesChangedCount,
                sequence: beat.sequence,
                timestamp: beat.timestamp,
                ageMs: beat.ageMs,
                stale: beat.stale
              }
            : null
        }
      })
      return {
        schemaVersion: 1 as const,
        generatedAt: now.toISOString(),
        revision: await revision(),
        lifecycle,
        sprintId: lifecycle.sprintId,
        phase: lifecycle.phase,
        workers,
        locks: [],
        active: view.active
      }
    },

    /** The project's active (queued or running) job, as stored. */
    activeJob: () => repos.jobs.active(projectId),

    /** A sprint of this project (undefined for another project's). */
    async findSprint(id: string): Promise<Sprint | undefined> {
      const sprint = await repos.sprints.get(id)
      return sprint && sprint.projectId === projectId ? sprint : undefined
    },

    latestSprint: () => repos.sprints.latest(projectId),

    /** The event log after `afterSeq`, oldest first (for followers without the server's stream). */
    eventsAfter: (afterSeq: number, limit: number, filter: { sprintId?: string } = {}) =>
      repos.events.readAfter(projectId, afterSeq, limit, filter),

    latestEventSeq: () => repos.events.latestSeq(projectId),

    /** A job of this project as stored (undefined for another project's). */
    async findJob(id: number): Promise<Job | undefined> {
      const job = await repos.jobs.get(id)
      return job && job.projectId === projectId ? job : undefined
    },

    /** A job of this project as it really is; numbers only, anything else is not a job. */
    async job(rawId: string) {
      const id = JOB_ID.test(rawId) ? Number(rawId) : NaN
      const job = Number.isSafeInteger(id) ? await repos.jobs.get(id) : undefined
      if (!job || job.projectId !== projectId) throw orchestratorError('ORCH_JOB_NOT_FOUND')
      const view = await deps.runControl.jobView(id)
      if (!view) throw orchestratorError('ORCH_JOB_NOT_FOUND')
      return view
    }
  }
}
export type StatusService = ReturnType<typeof createStatusService>
