import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { orchestratorError } from '../errors.js'
import { loadProjectConfig } from '../project/config.js'
import type { OrchestratorRepositories } from '../state/repositories.js'
import type { JobRow } from '../state/db.js'
import { jobEntryCommand } from './job-command.js'
import { launchDetachedJob } from './job-launch.js'
import { planSprint, PlanError } from './planner/index.js'
import { ProviderError } from './providers/errors.js'
import type { RunControl } from './reconcile.js'
import type { EnginePlatform } from './types.js'
import { createWorktrees } from './worktrees.js'
import { recordPlanDecision } from '../modules/memory/engine-records.js'

export interface EngineServiceDeps {
  projectRoot: string
  projectId: number
  dataDir: string
  /** DATABASE_URL the job process opens (SQLite in dataDir when undefined). */
  databaseUrl: string | undefined
  repositories: OrchestratorRepositories
  runControl: RunControl
  platform: EnginePlatform
  /** Called after this process appended events, so streams deliver them at once. */
  notify(): void
  /** `<prefix>-<base36 ms>-<6 random base36>` (mission ids). */
  newId(prefix: string): string
}

/**
 * Who a started run is recorded for: a tenant, whose new mission the run becomes, or a process
 * submission, whose own mission already tracks the run (so it is not recorded twice).
 */
export type RunOwner = { tenantId: string } | { executionId: string }

export interface StartedRun {
  job: JobRow
  created: boolean
  pid: number | null
  /** The run's mission in the owner's tenant (null for a submission's run, or when none is visible). */
  missionId: string | null
}

export const DIRECTIVES_FILE = 'DIRECTIVES.md'

/** Planning, starting, killing and cleaning up runs of one project: what the HTTP routes, RPC and CLI share. */
export function createEngineService(deps: EngineServiceDeps) {
  const { repositories: repos, projectId, projectRoot } = deps
  const directivesPath = path.join(projectRoot, DIRECTIVES_FILE)

  function projectConfig() {
    const result = loadProjectConfig(projectRoot)
    if (result.errors.length > 0) {
      throw orchestratorError(
        'ORCH_CONFIG_INVALID',
        `invalid .quartet/config.json: ${result.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`
      )
    }
    return result.config
  }

  function launch(job: JobRow): number {
    const { command, args } = jobEntryCommand(['--job', String(job.id), '--project', projectRoot, '--data-dir', deps.dataDir])
    const env: NodeJS.ProcessEnv = { ...process.env }
    if (deps.databaseUrl) env.DATABASE_URL = deps.databaseUrl
    else delete env.DATABASE_URL
    return launchDetachedJob(
      {
        command,
        args,
        env,
        cwd: projectRoot,
        logFile: path.join(deps.dataDir, 'orchestrator', 'jobs', `${job.id}.log`)
      },
      deps.platform
    ).pid
  }

  return {
    readDirectives(): string {
      try {
        return fs.readFileSync(directivesPath, 'utf8')
      } catch {
        return ''
      }
    },

    /** Replaces DIRECTIVES.md (atomically) and says how many task blocks it has. */
    writeDirectives(content: string): { taskCount: number } {
      const temporary = `${directivesPath}.${process.pid}.tmp`
      fs.writeFileSync(temporary, content)
      fs.renameSync(temporary, directivesPath)
      return { taskCount: content.split('\n').filter((line) => line.startsWith('## Task')).length }
    },

    /** Plans a sprint from DIRECTIVES.md (or the directive given) and stores it as PLANNED. */
    async plan(input: { mode?: 'ai' | 'structured' | 'auto'; directive?: string }) {
      const config = projectConfig()
      const directives = input.directive ?? this.readDirectives()
      if (directives.trim() === '')
        throw orchestratorError(
          'ORCH_PLAN_INVALID',
          `nothing to plan: ${DIRECTIVES_FILE} is missing or empty (write "## Task 1: …" blocks, or pass a directive)`
        )
      let planned
      try {
        planned = await planSprint({ mode: input.mode ?? config.planner.mode, directives, config, platform: deps.platform })
      } catch (error) {
        if (error instanceof PlanError) throw orchestratorError('ORCH_PLAN_INVALID', `the plan is invalid: ${error.errors.join('; ')}`)
        if (error instanceof ProviderError)
          throw orchestratorError('ORCH_PROVIDER_UNAVAILABLE', `the planner's provider failed: ${error.message}`)
        throw error
      }
      const title =
        planned.context
          .split('\n')
          .find((line) => line.startsWith('# '))
          ?.slice(2)
          .trim() || `Sprint of ${new Date().toISOString().slice(0, 10)}`
      const digest = createHash('sha256').update(directives).digest('hex')
      const { sprint, tasks } = await repos.sprints.createFromPlan(projectId, planned.plan, { title, directivesDigest: digest })
      await repos.events.append(projectId, {
        type: 'sprint_planned',
        sprintId: sprint.id,
        data: { mode: planned.plan.mode, tasks: tasks.length, warnings: planned.warnings }
      })
      await recordPlanDecision(repos, projectId, sprint, { mode: planned.plan.mode, tasks, warnings: planned.warnings })
      deps.notify()
      return { sprint, tasks, mode: planned.plan.mode, warnings: planned.warnings }
    },

    /**
     * Starts the newest planned sprint as a detached job (or resumes the orphaned/killed one).
     * Concurrent starts share one job: the database admits one active job per project. Every
     * created job is recorded as one mission with it (see RunOwner). `sprintId` names the planned
     * sprint to start instead of the newest one (process submissions).
     */
    async start(input: { owner: RunOwner; resume?: boolean; sprintId?: string }): Promise<StartedRun> {
      await deps.runControl.reconcile(projectId)
      projectConfig()
      const tenantId = 'tenantId' in input.owner ? input.owner.tenantId : null
      const mission = tenantId === null ? undefined : { id: deps.newId('mis'), tenantId }
      const joined = async (job: JobRow): Promise<StartedRun> => {
        const recorded = tenantId === null ? undefined : await repos.missions.byJob(projectId, tenantId, job.id)
        return { job, created: false, pid: job.pid, missionId: recorded?.id ?? null }
      }
      let started: { job: JobRow; created: boolean }
      if (input.resume) {
        try {
          started = await deps.runControl.resumeSprint(projectId, mission)
        } catch (error) {
          if (error instanceof Error && error.message === 'nothing to resume') throw orchestratorError('ORCH_NOTHING_TO_RESUME')
          throw error
        }
      } else {
        const sprint = input.sprintId === undefined ? await repos.sprints.latest(projectId) : await repos.sprints.get(input.sprintId)
        const active = await repos.jobs.active(projectId)
        if (active) return joined(active)
        if (!sprint || sprint.project_id !== projectId || sprint.status !== 'PLANNED') throw orchestratorError('ORCH_NOTHING_PLANNED')
        started = await repos.jobs.startJob(projectId, sprint.id, {
          resume: false,
          ...(mission ? { mission: { ...mission, title: sprint.title } } : {})
        })
      }
      if (!started.created) return joined(started.job)
      const pid = launch(started.job)
      await repos.events.append(projectId, {
        type: 'job_started',
        sprintId: started.job.sprint_id,
        data: { jobId: started.job.id, pid, resume: input.resume === true }
      })
      deps.notify()
      return { ...started, pid, missionId: mission?.id ?? null }
    },

    async killAll() {
      const result = await deps.runControl.killJob(projectId)
      deps.notify()
      return result
    },

    async killTask(taskId: string) {
      const result = await deps.runControl.killTask(taskId)
      deps.notify()
      return result
    },

    /** Removes finished worktrees; never one with uncommitted or unmerged work (those are reported). */
    async cleanup() {
      if (await deps.runControl.cleanupBlocked(projectId)) throw orchestratorError('ORCH_SPRINT_ACTIVE')
      const worktrees = createWorktrees(deps.platform)
      if (!(await worktrees.isGitRepo(projectRoot))) return { removed: [], kept: [] }
      const result = await worktrees.cleanupWorktrees(projectRoot, path.join(projectRoot, '.quartet', 'worktrees'), {})
      await repos.events.append(projectId, { type: 'cleanup', data: { removed: result.removed.length, kept: result.kept.length } })
      deps.notify()
      return result
    }
  }
}

export type EngineService = ReturnType<typeof createEngineService>
