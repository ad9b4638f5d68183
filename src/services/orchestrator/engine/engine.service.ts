/**
 * Planning, starting, killing and cleaning up runs of one project: what the HTTP routes, RPC and
 * the CLI share. Every method that changes the run names its caller, and the control switch
 * (policy.ts) is checked here, so no channel can drive a run past it.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { orchestratorError } from '../errors.js'
import type { AccessPolicy } from '../policy.js'
import type { Principal } from '../principal.js'
import type { ProjectConfigSource } from '../project/config-source.js'
import type { Job, Sprint, Task } from '../state/domain.js'
import type { OrchestratorRepositories } from '../state/repositories.js'
import type { GitWorktrees } from './worktrees.js'
import { planSprint, PlanError } from './planner/index.js'
import { ProviderError } from './providers/errors.js'
import { RECOVERY_COMMAND, type RunControl } from './run-control.js'
import type { EnginePlatform, Plan } from './types.js'

export const DIRECTIVES_FILE = 'DIRECTIVES.md'

export interface PlannedSprint {
  sprint: Sprint
  tasks: Task[]
  mode: Plan['mode']
  warnings: string[]
  /** The resumable sprint a forced plan replaced, and its unfinished tasks (they are cancelled as abandoned). */
  abandoned?: { sprintId: string; status: string; tasks: string[] }
}

export interface EngineServiceDeps {
  projectRoot: string
  projectId: number
  repositories: Pick<OrchestratorRepositories, 'sprints' | 'jobs' | 'missions' | 'events' | 'tasks' | 'approvals'>
  runControl: RunControl
  config: ProjectConfigSource
  policy: AccessPolicy
  platform: EnginePlatform
  worktrees: GitWorktrees
  /** Starts the detached job process of a queued job; answers its pid. */
  launchJob(jobId: number): number
  /** This host's name, recorded with a launched job's pid (default: os.hostname()). */
  hostname?: string
  /** Called after this process appended events, so streams deliver them at once. */
  notify(): void
  /** `<prefix>-<base36 ms>-<6 random base36>` (mission ids). */
  newId(prefix: string): string
  /** Run after a sprint was planned and stored (the memory records the plan decision). */
  onPlanned?: ReadonlyArray<(planned: PlannedSprint) => Promise<unknown>>
}

/**
 * Who a started run is recorded for: a tenant, whose new mission the run becomes, or a process
 * submission, whose own mission already tracks the run (so it is not recorded twice).
 */
export type RunOwner = { tenantId: string } | { executionId: string }

export interface StartedRun {
  job: Job
  created: boolean
  pid: number | null
  /** The run's mission in the owner's tenant (null for a submission's run, or when none is visible). */
  missionId: string | null
}

function sprintTitle(context: string): string {
  const heading = context
    .split('\n')
    .find((line) => line.startsWith('# '))
    ?.slice(2)
    .trim()
  return heading || `Sprint of ${new Date().toISOString().slice(0, 10)}`
}

function unfinished(tasks: readonly string[]): string {
  return `${tasks.length} unfinished task${tasks.length === 1 ? '' : 's'} (${tasks.join(', ')})`
}

export function createEngineService(deps: EngineServiceDeps) {
  const { repositories: repos, projectId, projectRoot } = deps
  const directivesPath = path.join(projectRoot, DIRECTIVES_FILE)

  function readDirectives(): string {
    try {
      return fs.readFileSync(directivesPath, 'utf8')
    } catch {
      return ''
    }
  }

  async function queueJob(input: { owner: RunOwner; resume: boolean; sprintId?: string }) {
    const tenantId = 'tenantId' in input.owner ? input.owner.tenantId : null
    const mission = tenantId === null ? undefined : { id: deps.newId('mis'), tenantId }
    const joined = async (job: Job): Promise<StartedRun> => {
      const recorded = tenantId === null ? undefined : await repos.missions.byJob(projectId, tenantId, job.id)
      return { job, created: false, pid: job.pid, missionId: recorded?.id ?? null }
    }
    if (input.resume) return { started: await deps.runControl.resumeSprint(projectId, mission), mission, joined }
    const sprint = input.sprintId === undefined ? await repos.sprints.latest(projectId) : await repos.sprints.get(input.sprintId)
    const active = await repos.jobs.active(projectId)
    if (active) return { started: { job: active, created: false }, mission, joined }
    if (!sprint || sprint.projectId !== projectId || sprint.status !== 'PLANNED') {
      const left = input.sprintId === undefined ? await deps.runControl.resumableSprint(projectId) : null
      if (left) {
        throw orchestratorError(
          'ORCH_NOTHING_PLANNED',
          `Nothing new is planned, but sprint ${left.sprint.id} was left ${left.sprint.status} with ${unfinished(left.tasks)}: ` +
            `resume it with ${RECOVERY_COMMAND} (POST /api/start {"resume": true}), or plan a new sprint with quartet plan --force.`
        )
      }
      throw orchestratorError('ORCH_NOTHING_PLANNED')
    }
    const started = await repos.jobs.startJob(projectId, sprint.id, {
      resume: false,
      ...(mission ? { mission: { ...mission, title: sprint.title } } : {})
    })
    return { started, mission, joined }
  }

  /** A forced plan replaced this resumable sprint: it ends ABORTED and its unfinished tasks CANCELLED, so nothing looks resumable. */
  async function abandon(left: { sprint: Sprint; tasks: string[] }, by: string): Promise<NonNullable<PlannedSprint['abandoned']>> {
    const reason = `abandoned: replaced by sprint ${by}`
    const finishedAt = deps.platform.clock().toISOString()
    await repos.tasks.transitionAll(left.sprint.id, 'CANCELLED', { from: ['ORPHANED', 'PENDING'], reason, finishedAt })
    if (left.sprint.status === 'ORPHANED')
      await repos.sprints.setStatus(left.sprint.id, 'ABORTED', { stopReason: reason, finishedAt, from: ['ORPHANED'] })
    // Their open approval requests guard nothing now: a late decision is told they were superseded.
    await repos.approvals.supersedeForTasks(projectId, left.tasks, { channel: 'abandoned', reason, decidedAt: finishedAt })
    return { sprintId: left.sprint.id, status: left.sprint.status, tasks: left.tasks }
  }

  return {
    readDirectives,

    /** Replaces DIRECTIVES.md (atomically) and says how many task blocks it has. */
    writeDirectives(caller: Principal, content: string): { taskCount: number } {
      deps.policy.assertControl(caller)
      const temporary = `${directivesPath}.${process.pid}.tmp`
      fs.writeFileSync(temporary, content)
      fs.renameSync(temporary, directivesPath)
      return { taskCount: content.split('\n').filter((line) => line.startsWith('## Task')).length }
    },

    /** Plans a sprint from DIRECTIVES.md (or the directive given) and stores it as PLANNED. */
    async plan(
      caller: Principal,
      input: { mode?: 'ai' | 'structured' | 'auto'; directive?: string; force?: boolean }
    ): Promise<PlannedSprint> {
      deps.policy.assertControl(caller)
      await deps.runControl.reconcile(projectId)
      const active = await repos.jobs.active(projectId)
      if (active) {
        throw orchestratorError(
          'ORCH_RUN_ACTIVE',
          `A run is active (job ${active.id} of sprint ${active.sprintId}): wait for it or stop it with quartet kill before planning.`
        )
      }
      const left = await deps.runControl.resumableSprint(projectId)
      if (left && input.force !== true) {
        throw orchestratorError(
          'ORCH_SPRINT_RESUMABLE',
          `Sprint ${left.sprint.id} was left ${left.sprint.status} with ${unfinished(left.tasks)}: resume it with ${RECOVERY_COMMAND}, ` +
            `or plan anyway with quartet plan --force ({"force": true}), which abandons them (their branches and worktrees are kept).`
        )
      }
      const config = deps.config.current()
      const directives = input.directive ?? readDirectives()
      if (directives.trim() === '') {
        const hint = 'write "## Task 1: …" blocks, or pass a directive'
        throw orchestratorError('ORCH_PLAN_INVALID', `nothing to plan: ${DIRECTIVES_FILE} is missing or empty (${hint})`)
      }
      let planned
      try {
        planned = await planSprint({ mode: input.mode ?? config.planner.mode, directives, config, platform: deps.platform })
      } catch (error) {
        if (error instanceof PlanError) throw orchestratorError('ORCH_PLAN_INVALID', `the plan is invalid: ${error.errors.join('; ')}`)
        if (error instanceof ProviderError) {
          throw orchestratorError('ORCH_PROVIDER_UNAVAILABLE', `the planner's provider failed: ${error.message}`)
        }
        throw error
      }
      const digest = createHash('sha256').update(directives).digest('hex')
      const meta = { title: sprintTitle(planned.context), directivesDigest: digest, context: planned.context }
      const { sprint, tasks } = await repos.sprints.createFromPlan(projectId, planned.plan, meta)
      await repos.events.append(projectId, {
        type: 'sprint_planned',
        sprintId: sprint.id,
        data: { mode: planned.plan.mode, tasks: tasks.length, warnings: planned.warnings }
      })
      const result: PlannedSprint = { sprint, tasks, mode: planned.plan.mode, warnings: planned.warnings }
      if (left) result.abandoned = await abandon(left, sprint.id)
      for (const hook of deps.onPlanned ?? []) await hook(result)
      deps.notify()
      return result
    },

    /**
     * Starts the newest planned sprint as a detached job (or resumes the orphaned/killed one).
     * Concurrent starts share one job: the database admits one active job per project. Every
     * created job is recorded as one mission with it (see RunOwner). `sprintId` names the planned
     * sprint to start instead of the newest one (process submissions).
     */
    async start(caller: Principal, input: { owner: RunOwner; resume?: boolean; sprintId?: string }): Promise<StartedRun> {
      deps.policy.assertControl(caller)
      await deps.runControl.reconcile(projectId)
      deps.config.current()
      const { started, mission, joined } = await queueJob({ ...input, resume: input.resume === true })
      if (!started.created) return joined(started.job)
      const pid = deps.launchJob(started.job.id)
      await repos.jobs.recordLaunch(started.job.id, pid, deps.hostname ?? os.hostname())
      await repos.events.append(projectId, {
        type: 'job_started',
        sprintId: started.job.sprintId,
        data: { jobId: started.job.id, pid, resume: input.resume === true }
      })
      deps.notify()
      return { job: started.job, created: true, pid, missionId: mission?.id ?? null }
    },

    async killAll(caller: Principal) {
      deps.policy.assertControl(caller)
      return deps.runControl.killJob(projectId)
    },

    async killTask(caller: Principal, taskId: string) {
      deps.policy.assertControl(caller)
      return deps.runControl.killTask(taskId)
    },

    /** Removes finished worktrees; never one with uncommitted or unmerged work (those are reported). */
    async cleanup(caller: Principal) {
      deps.policy.assertControl(caller)
      if (await deps.runControl.cleanupBlocked(projectId)) throw orchestratorError('ORCH_SPRINT_ACTIVE')
      if (!(await deps.worktrees.isGitRepo(projectRoot))) return { removed: [], kept: [] }
      const result = await deps.worktrees.cleanupWorktrees(projectRoot, path.join(projectRoot, '.quartet', 'worktrees'), {})
      await repos.events.append(projectId, { type: 'cleanup', data: { removed: result.removed.length, kept: result.kept.length } })
      deps.notify()
      return result
    }
  }
}

export type EngineService = ReturnType<typeof createEngineService>
