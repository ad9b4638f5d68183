/**
 * The orchestrator's one composition root. The HTTP server (app.ts), every CLI command
 * (cli/context.ts) and the detached job process (engine/job-main.ts) build the orchestrator of a
 * project here, so they share one wiring: one configuration source, one kill grace, one set of
 * policies, and services that each get only the narrow dependencies they use.
 */
import os from 'node:os'
import path from 'node:path'
import type { Database } from '../../core/db/database.js'
import { databaseHealthCheck } from '../../core/http/plugins/database-health.js'
import type { Logger } from '../../core/logger.js'
import { composeAutonomy } from './compose-autonomy.js'
import { composeIdentity } from './compose-identity.js'
import type { Platform } from '../../core/platform.js'
import { createTaskApprovalGate } from './engine/approval-gate.js'
import { createRunApprovals } from './engine/run-approvals.js'
import { createEngineService } from './engine/engine.service.js'
import { createExecutor } from './engine/execute.js'
import { createGit } from './engine/git.js'
import { runJob, type JobResult } from './engine/job.js'
import { createJobLauncher } from './engine/job-launch.js'
import { runProviderTask } from './engine/providers/apply-diff.js'
import { createRunControl } from './engine/run-control.js'
import type { EnginePlatform } from './engine/types.js'
import { createWorktrees } from './engine/worktrees.js'
import { idMaker, randomBase36 } from './ids.js'
import { createApprovalsService } from './modules/approvals/approvals.service.js'
import { createProjectConfigService } from './modules/control/config.service.js'
import { createGitService } from './modules/git/git.service.js'
import { recordSprintCoverage } from './modules/insight/coverage.service.js'
import { createInsightService } from './modules/insight/insight.service.js'
import { createEngineRecords } from './modules/memory/engine-records.js'
import { createMemoryReadService, type MemoryReadService } from './modules/memory/memory-read.service.js'
import { createMemoryWriteService } from './modules/memory/memory-write.service.js'
import { createTokenSealer, loadOrCreateMemoryKey } from './modules/memory/opaque-token.js'
import { createMergeService } from './modules/merge/merge.service.js'
import { createReviewService } from './modules/merge/review.service.js'
import { createMissionsService } from './modules/missions/missions.service.js'
import { createRunFlowsService } from './modules/run-flows/run-flows.service.js'
import { createStatusService } from './modules/status/status.service.js'
import { createApprovalRequests } from './modules/submissions/approval-requests.js'
import { createSubmissionsService, type SubmissionsService } from './modules/submissions/submissions.service.js'
import { createTasksService } from './modules/tasks/tasks.service.js'
import { createChatLiveState } from './modules/chat/chat-live.js'
import { createChatService } from './modules/chat/chat.service.js'
import { createAfterTaskXverify } from './modules/xverify/after-task.js'
import { createXverifyService } from './modules/xverify/xverify.service.js'
import { spawnPty } from './modules/terminal/pty.js'
import { createTerminalService, type TerminalService } from './modules/terminal/terminal.service.js'
import { createAccessPolicy } from './policy.js'
import { DEFAULT_PROJECT_CONFIG } from './project/config-schema.js'
import { createProjectConfigSource } from './project/config-source.js'
import type { OrchestratorDb } from './state/db.js'
import { createOrchestratorRepositories } from './state/repositories.js'
import { createMergesRepository } from './state/merges.repository.js'
import { createRunFlowsRepository } from './state/run-flows.repository.js'
import { createTerminalRepository } from './state/terminal.repository.js'
import { createEventHub } from './streams/event-hub.js'
import { createRunViews } from './views/run-views.js'

// A page is at most maxBytes of entries plus its candidates (about 60 KB at the default limits): a few MB when full.
const CACHED_MEMORY_PAGES = 64

export interface OrchestratorDeps {
  database: Database
  platform: Platform
  projectRoot: string
  dataDir: string
  /** DATABASE_URL, handed to the job processes (SQLite in dataDir when undefined). */
  databaseUrl: string | undefined
  /** QUARTET_CONTROL_MUTATIONS=1: control over the API is on whatever the project config says. */
  controlMutationsSwitch: boolean
  logger: Pick<Logger, 'warn'>
  env?: Readonly<Record<string, string | undefined>>
  hostname?: string
  /**
   * Rank memory word searches from an in-memory term index (the server). A one-off process (the
   * CLI) ranks in the database: building the index would read every entry for one search.
   */
  memoryTermIndex?: boolean
}

export interface RunJobInput {
  jobId: number
  /** The detached job process stops its sprint gracefully on SIGTERM/SIGINT. */
  handleSignals?: boolean
  /** The detached job process: a watchdog stops its agents when it ends, however it ends. */
  supervise?: boolean
}

export type Orchestrator = Awaited<ReturnType<typeof createOrchestrator>>

export async function createOrchestrator(deps: OrchestratorDeps) {
  const { platform, projectRoot, dataDir } = deps
  const clock = platform.clock
  const repositories = createOrchestratorRepositories(deps.database.db as OrchestratorDb, clock)
  const projectId = await repositories.projects.ensure(projectRoot)
  const config = createProjectConfigSource(projectRoot)
  const policy = createAccessPolicy({
    controlMutationsSwitch: deps.controlMutationsSwitch,
    config,
    nowSeconds: () => clock().getTime() / 1000
  })
  const enginePlatform: EnginePlatform = { spawn: platform.spawn, fetch: platform.fetch, clock }
  const git = createGit(platform)
  const worktrees = createWorktrees(git)
  const newId = idMaker(platform)
  const hub = createEventHub({
    events: repositories.events,
    onError: (error) => deps.logger.warn({ err: error }, 'orchestrator: event tailer failed')
  })
  const notify = () => hub.notify(projectId)

  // Every kill (HTTP, CLI, job, orphan reconciliation) waits engine.kill_grace_seconds before SIGKILL.
  // Stopping work must never wait for a valid configuration: a broken file falls back to the default.
  const killGraceMs = () => {
    const seconds = config.read().config.engine.kill_grace_seconds
    const valid = typeof seconds === 'number' && seconds >= 0 && seconds <= 600
    return Math.round((valid ? seconds : DEFAULT_PROJECT_CONFIG.engine.kill_grace_seconds) * 1000)
  }
  const runControl = createRunControl({
    repositories,
    clock,
    killGraceMs,
    notify,
    ...(deps.hostname ? { hostname: deps.hostname } : {})
  })
  const records = createEngineRecords({ repositories, projectId })
  const engine = createEngineService({
    projectRoot,
    projectId,
    repositories,
    runControl,
    config,
    policy,
    platform: enginePlatform,
    worktrees,
    launchJob: createJobLauncher({ projectRoot, dataDir, databaseUrl: deps.databaseUrl, platform }),
    ...(deps.hostname ? { hostname: deps.hostname } : {}),
    notify,
    newId,
    onPlanned: [records.planDecided]
  })

  // One approval store for everything that parks (engine tasks, agents, process submissions): a
  // request closed on any channel settles the submission waiting on it before the call answers.
  const late: { submissions?: SubmissionsService } = {}
  // An agent's request that names its task parks the task while it waits (engine/run-approvals.ts).
  const runApprovals = createRunApprovals({ repositories, projectId, clock, notify })
  const approvals = createApprovalsService({
    repositories,
    projectId,
    dataDir,
    clock,
    newId: () => `apr_${platform.ids.token(12)}`,
    approvalConfig: () => config.current().approval,
    policy,
    onRequested: (requested) => runApprovals.requested(requested),
    onClosed: async (closed) => {
      await runApprovals.closed(closed)
      if (closed.requesterKind !== 'process') return
      await late.submissions?.settleApproval(closed.tenantId, closed.id).catch((error: unknown) => {
        // The decision is recorded; the sweep settles the submission later.
        deps.logger.warn({ err: error }, 'orchestrator: settling a parked submission failed')
      })
    }
  })
  const approvalRequests = createApprovalRequests(approvals)
  const submissions = createSubmissionsService({
    projectId,
    repositories,
    runControl,
    engine,
    approvals: approvalRequests,
    config,
    policy,
    clock,
    randomSuffix: () => randomBase36(platform)
  })
  late.submissions = submissions

  const { autonomous, nervous, evolution, ingress } = composeAutonomy({
    db: deps.database.db,
    projectId,
    dataDir,
    config,
    clock,
    newId,
    submissions,
    runControl,
    env: deps.env ?? process.env,
    logger: deps.logger
  })

  const memoryRepository = repositories.memory
  let memoryReads: MemoryReadService | undefined
  let terminal: TerminalService | undefined
  const insight = createInsightService({
    projectId,
    projectRoot,
    dataDir,
    repositories,
    config,
    git,
    platform: enginePlatform,
    env: deps.env ?? process.env,
    clock
  })

  const runFlowsRepository = createRunFlowsRepository(deps.database.db as OrchestratorDb, clock)
  const mergeRepositories = { runFlows: runFlowsRepository, merges: createMergesRepository(deps.database.db as OrchestratorDb, clock) }
  const runFlows = createRunFlowsService({
    projectId,
    projectRoot,
    repositories: { ...repositories, runFlows: runFlowsRepository },
    engine,
    runControl,
    config,
    git,
    clock,
    newFlowId: () => platform.ids.uuid(),
    newAttemptId: () => `att-${randomBase36(platform)}`
  })

  const { audit, rateRules, enterprise, identity } = composeIdentity({
    projectId,
    dataDir,
    config,
    repositories,
    clock,
    fetch: platform.fetch,
    env: deps.env ?? process.env,
    logger: deps.logger
  })

  const status = createStatusService({ projectId, repositories, runControl, clock })
  const tasks = createTasksService({ projectId, dataDir, repositories, runControl, clock })
  const xverify = createXverifyService({
    projectRoot,
    dataDir,
    config: () => config.current(),
    platform: enginePlatform,
    env: deps.env ?? process.env,
    lookupTask: (id) => tasks.lookup(id),
    readDiff: (commit) => git.git(projectRoot, ['show', '--format=', '--patch', commit])
  })

  return {
    projectId,
    projectRoot,
    audit,
    rateRules,
    enterprise,
    dataDir,
    config,
    policy,
    events: hub,
    runControl,
    engine,
    status,
    tasks,
    /** Cross-verify of a task's result or a claim by a second provider (quartet xverify). */
    xverify,
    /** Chat about the project: built-ins from live state, else one grounded provider call. */
    chat: createChatService({
      live: createChatLiveState({
        status: () => status.status(),
        listTasks: () => tasks.listTasks(undefined),
        pendingApprovals: (tenantId) => approvals.forTenant(tenantId).pending()
      }),
      config,
      platform: enginePlatform,
      env: deps.env ?? process.env
    }),
    /** Rendered read views cached under the run's revision (the server's hot reads). */
    views: createRunViews({ projectId, repositories, runControl, clock }),
    insight,
    git: createGitService({ git, projectRoot, projectId, sprints: repositories.sprints, tasks: repositories.tasks }),
    projectConfig: createProjectConfigService({ config, policy }),
    /** The local tenant's view; per caller: `approvals.forTenant(caller.tenantId)`. */
    approvals,
    approvalRequests,
    submissions,
    runFlows,
    merges: createMergeService({
      projectId,
      projectRoot,
      dataDir,
      git,
      platform: enginePlatform,
      config,
      policy,
      repositories: { ...repositories, ...mergeRepositories },
      newId,
      notify
    }),
    review: createReviewService({ projectId, projectRoot, git, repositories: { ...repositories, ...mergeRepositories } }),
    autonomous,
    ingress,
    nervous,
    evolution,
    missions: createMissionsService({ projectId, repositories, runControl, approvals: approvalRequests }),
    memory: {
      /** Built on first use: it reads (or creates) the project's cursor-sealing key in the data dir. */
      get reads(): MemoryReadService {
        memoryReads ??= createMemoryReadService({
          repository: memoryRepository,
          sealer: createTokenSealer(loadOrCreateMemoryKey(dataDir, projectId)),
          onQueryFailed: (error) => deps.logger.warn({ err: error }, 'orchestrator: memory query failed'),
          cachedPages: CACHED_MEMORY_PAGES,
          termIndex: deps.memoryTermIndex ? {} : false
        })
        return memoryReads
      },
      writes: createMemoryWriteService(memoryRepository)
    },

    identity,

    /** The embedded terminal's PTY sessions (built on first use: only the server opens terminals). */
    get terminal(): TerminalService {
      terminal ??= createTerminalService({
        projectRoot,
        projectId,
        repository: createTerminalRepository(deps.database.db as OrchestratorDb, clock),
        // A broken config file leaves the terminal on its defaults: it is how the operator fixes it.
        config: () => config.read().config.terminal ?? DEFAULT_PROJECT_CONFIG.terminal,
        spawnPty,
        clock,
        env: deps.env ?? process.env,
        logger: deps.logger
      })
      return terminal
    },

    /** One round trip to the database; throws while it cannot be reached (health reports it). */
    checkDatabase: databaseHealthCheck(deps.database.db),

    /** Closes past-due approval requests, then settles submissions whose request another process closed. */
    async sweepApprovals(): Promise<number> {
      const closed = await approvals.sweepExpired()
      await submissions.settleParked()
      return closed
    },

    /** The body of the detached job process: runs the job's sprint with this project's agents. */
    async runJob(input: RunJobInput): Promise<JobResult> {
      const job = await repositories.jobs.get(input.jobId)
      if (!job) throw new Error(`job ${input.jobId} not found`)
      const projectConfig = config.current()
      const gitMode = projectConfig.engine.use_worktrees && (await git.isRepo(projectRoot))
      const executeTask = createExecutor({
        platform: enginePlatform,
        config: projectConfig,
        dataDir: path.join(dataDir, 'orchestrator'),
        runProviderTask,
        worktrees
      })
      return runJob({
        repositories,
        projectId,
        jobId: input.jobId,
        executeTask,
        config: projectConfig,
        projectRoot,
        dataDir,
        ...(deps.databaseUrl ? {} : { databaseFile: path.join(dataDir, 'quartet.db') }),
        gitMode,
        clock,
        hostname: deps.hostname ?? os.hostname(),
        handleSignals: input.handleSignals === true,
        ...(input.supervise ? { supervise: enginePlatform } : {}),
        approvalGate: createTaskApprovalGate({ service: approvals, requireForRisk: projectConfig.approval.require_for_risk }),
        runApprovals,
        ...(projectConfig.cross_verify.after_task
          ? { onTaskDone: createAfterTaskXverify({ projectId, xverify, repositories, clock }) }
          : {}),
        onSprintEnded: [
          (sprintId) => records.sprintEnded(sprintId),
          async (sprintId, result) => {
            if (result.stopKind === 'killed') return
            await recordSprintCoverage({ repositories, projectId, sprintId, projectRoot, config: projectConfig, platform: enginePlatform })
          }
        ]
      })
    },

    /** Releases what the orchestrator holds (the event tailers); the database belongs to the caller. */
    close(): void {
      hub.close()
    },

    /** Kills the terminal's sessions and records their outbound bytes (server shutdown). */
    async closeTerminal(): Promise<void> {
      await terminal?.close()
    }
  }
}
