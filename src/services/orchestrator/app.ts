import os from 'node:os'
import type { AddressInfo } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../core/db/database.js'
import { createServer, type App } from '../../core/http/server.js'
import { openApiDocs } from '../../core/http/plugins/openapi.js'
import { requestLog } from '../../core/http/plugins/request-log.js'
import { securityHeaders } from '../../core/http/plugins/security-headers.js'
import type { Platform } from '../../core/platform.js'
import type { OrchestratorSettings } from './config.js'
import { idMaker, randomBase36 } from './ids.js'
import { createEngineService, type EngineService } from './engine/engine.service.js'
import { createRunControl, type RunControl } from './engine/reconcile.js'
import type { EnginePlatform } from './engine/types.js'
import { orchestratorErrorFormatter, orchestratorNotFound, registerGates, rewriteV1Request } from './gates/index.js'
import { controlRoutes } from './modules/control/control.routes.js'
import { gitRoutes } from './modules/git/git.routes.js'
import { healthRoutes } from './modules/health/health.routes.js'
import { statusRoutes } from './modules/status/status.routes.js'
import { taskRoutes } from './modules/tasks/tasks.routes.js'
import { insightRoutes } from './modules/insight/insight.routes.js'
import { memoryModule } from './modules/memory/memory.module.js'
import { createMissionsService } from './modules/missions/missions.service.js'
import { missionRoutes } from './modules/missions/missions.routes.js'
import { createParking } from './modules/process/parking.js'
import { processRoutes } from './modules/process/process.routes.js'
import { rpcRoutes } from './modules/rpc/rpc.routes.js'
import { approvalRoutes } from './modules/approvals/approvals.routes.js'
import { startExpirySweeper } from './modules/approvals/expiry-sweeper.js'
import { loadProjectConfig } from './project/config.js'
import { resolveApiToken, tokenFingerprint, type ResolvedApiToken } from './runtime/api-token.js'
import { removeHandshake, writeHandshake } from './runtime/handshake.js'
import type { OrchestratorDb } from './state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from './state/repositories.js'
import { createEventHub, type EventHub } from './streams/event-hub.js'
import { createRunViews, type RunViews } from './views/run-views.js'
import { registerEventStream, registerWorkerLogStream } from './streams/stream.routes.js'
import { taskLogFile } from './engine/scheduler.js'

export interface OrchestratorAppDeps {
  settings: OrchestratorSettings
  host: string
  dataDir: string
  databaseUrl: string | undefined
  database: Database
  logger: FastifyBaseLogger
  platform: Platform
  version: string
  env: Readonly<Record<string, string | undefined>>
}

/** Everything a route module may use: the project, its state, the engine, the live event hub. */
export interface OrchestratorState {
  projectRoot: string
  projectId: number
  dataDir: string
  repositories: OrchestratorRepositories
  runControl: RunControl
  engine: EngineService
  hub: EventHub
  /** Cached renderings of the hot read views, keyed by the run's revision. */
  views: RunViews
  platform: EnginePlatform
  clock: () => Date
}

export interface OrchestratorApp {
  app: App
  state: OrchestratorState
  token: ResolvedApiToken
}

const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** The orchestrator as a Fastify app over one project (not listening). */
export async function buildOrchestratorApp(deps: OrchestratorAppDeps): Promise<OrchestratorApp> {
  const { settings, platform } = deps
  const projectRoot = settings.projectRoot
  const repositories = createOrchestratorRepositories(deps.database.db as OrchestratorDb, platform.clock)
  const projectId = await repositories.projects.ensure(projectRoot)
  const runControl = createRunControl({ repositories, clock: platform.clock, killGraceMs: 5000 })
  // A job that died while no server watched is shown as orphaned from the first request on.
  await runControl.reconcileAll()
  const hub = createEventHub({
    events: repositories.events,
    onError: (error) => deps.logger.warn({ err: error }, 'orchestrator: event tailer failed')
  })
  const enginePlatform: EnginePlatform = { spawn: platform.spawn, fetch: platform.fetch, clock: platform.clock }
  const newId = idMaker(platform)
  const engine = createEngineService({
    projectRoot,
    projectId,
    dataDir: deps.dataDir,
    databaseUrl: deps.databaseUrl,
    repositories,
    runControl,
    platform: enginePlatform,
    notify: () => hub.notify(projectId),
    newId
  })
  const views = createRunViews({ projectId, repositories, runControl, clock: platform.clock })
  const state: OrchestratorState = {
    projectRoot,
    projectId,
    dataDir: deps.dataDir,
    repositories,
    runControl,
    engine,
    hub,
    views,
    platform: enginePlatform,
    clock: platform.clock
  }

  const projectConfig = loadProjectConfig(projectRoot)
  const token = resolveApiToken({
    explicit: settings.apiToken,
    env: { ...deps.env, QUARTET_API_AUTH_DISABLED: settings.authDisabled ? '1' : undefined },
    projectConfigToken: projectConfig.config.api_auth_token,
    projectRoot,
    host: deps.host
  })

  const controlMutations = () => settings.controlMutations || loadProjectConfig(projectRoot).config.api.control_mutations

  const app = createServer({
    logger: deps.logger,
    errorFormatter: orchestratorErrorFormatter,
    fastify: { rewriteUrl: rewriteV1Request },
    // Dashboards and CLIs hold SSE streams open, all from loopback: the per-address cap must allow many.
    connections: { maxConnectionsPerClient: 4096 },
    notFound: orchestratorNotFound
  })
  // The reference server's JSON headers, HSTS included (browsers ignore it over plain HTTP).
  securityHeaders(app, { hstsMaxAgeSeconds: 31_536_000, xssProtectionOff: true })
  requestLog(app)
  registerGates(app, {
    auth: { token: token.token, disabled: token.disabled, defaultDeny: token.defaultDeny },
    // Read per request: `quartet` may switch api.control_mutations in the config file while the server runs.
    controlMutations,
    rateLimit: { max: settings.rateLimit, windowMs: 60_000 }
  })

  await openApiDocs(app, {
    name: 'orchestrator',
    description:
      'Local project orchestration: plans sprints of tasks and runs them through coding agents in git worktrees. ' +
      'Bearer token from <project>/.quartet/runtime/api-token (or QUARTET_API_TOKEN).',
    version: deps.version,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'the orchestrator API token' } },
    security: [{ bearer: [] }],
    tags: [
      { name: 'health' },
      { name: 'status' },
      { name: 'control' },
      { name: 'config' },
      { name: 'insight' },
      { name: 'memory' },
      { name: 'git' },
      { name: 'streams' },
      { name: 'process' },
      { name: 'missions' },
      { name: 'rpc' },
      { name: 'approvals' }
    ]
  })

  // Most action routes take an optional body: a bodiless POST means "no options".
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method === 'POST' && (request.body === undefined || request.body === null)) request.body = {}
    done()
  })

  // No terminal transport is served yet (its routes answer 404), so health must not advertise one.
  await app.register(healthRoutes({ version: deps.version, projectRoot, terminalEnabled: false, clock: platform.clock }))
  await app.register(controlRoutes({ engine, projectRoot }))
  await app.register(statusRoutes(state))
  await app.register(taskRoutes(state))
  await app.register(insightRoutes({ state, env: deps.env }))
  await app.register(gitRoutes(state))
  // One approval store for everything that parks: engine tasks, agents and process submissions.
  const parking = createParking({
    projectRoot,
    projectId,
    repositories,
    runControl,
    engine,
    dataDir: deps.dataDir,
    clock: platform.clock,
    newId: () => `apr_${platform.ids.token(12)}`,
    randomSuffix: () => randomBase36(platform),
    approvalConfig: () => loadProjectConfig(projectRoot).config.approval,
    onSettleError: (error) => deps.logger.warn({ err: error }, 'orchestrator: settling a parked submission failed')
  })
  const { approvals, process: processService } = parking
  await app.register(
    approvalRoutes({
      service: approvals,
      apiDecideEnabled: () => loadProjectConfig(projectRoot).config.approval.api_decide,
      principal: token.token ? tokenFingerprint(token.token) : 'api:unauthenticated'
    })
  )
  // Each tick also settles submissions whose request another process (the CLI) closed.
  const sweeper = startExpirySweeper({
    service: {
      sweepExpired: async () => {
        const closed = await approvals.sweepExpired()
        await processService.settleParked()
        return closed
      }
    },
    intervalMs: settings.approvalSweepMs,
    onError: (error) => deps.logger.warn({ err: error }, 'orchestrator: approval expiry sweep failed')
  })
  await app.register(memoryModule({ state, logger: deps.logger }))
  const missions = createMissionsService({ projectId, repositories, runControl, approvals: parking.port })
  await app.register(processRoutes({ process: processService }))
  await app.register(missionRoutes({ missions }))
  await app.register(
    rpcRoutes({ projectRoot, projectId, repositories, engine, approvals: parking.port, controlMutations, clock: platform.clock })
  )
  registerEventStream(app, { hub, projectId })
  registerWorkerLogStream(app, {
    resolveLogFile: async (taskId) => {
      if (!TASK_ID.test(taskId)) return null
      const task = await repositories.tasks.get(taskId)
      return task ? taskLogFile(deps.dataDir, task.sprint_id, task.id) : null
    }
  })

  app.addHook('onListen', (done) => {
    const address = app.server.address() as AddressInfo | null
    if (address) {
      writeHandshake({
        projectRoot,
        port: address.port,
        host: deps.host,
        version: deps.version,
        ...(token.file ? { tokenFile: token.file } : {})
      })
    }
    done()
  })
  app.addHook('onClose', (_instance, done) => {
    removeHandshake(projectRoot)
    hub.close()
    sweeper.stop()
    done()
  })
  deps.logger.debug({ projectRoot, projectId, host: os.hostname() }, 'orchestrator ready')
  return { app, state, token }
}
