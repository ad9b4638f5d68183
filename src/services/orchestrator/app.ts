/**
 * The orchestrator's HTTP face over an orchestrator built by compose.ts: the gates, the API docs
 * and every route module, each given the services it calls and nothing else.
 */
import os from 'node:os'
import type { AddressInfo } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'
import { createServer, type App } from '../../core/http/server.js'
import { openApiDocs } from '../../core/http/plugins/openapi.js'
import { requestLog } from '../../core/http/plugins/request-log.js'
import { securityHeaders } from '../../core/http/plugins/security-headers.js'
import type { Orchestrator } from './compose.js'
import { orchestratorErrorFormatter, orchestratorNotFound, registerGates, rewriteV1Request } from './gates/index.js'
import { startExpirySweeper } from './modules/approvals/expiry-sweeper.js'
import { approvalRoutes } from './modules/approvals/approvals.routes.js'
import { autonomousRoutes } from './modules/autonomous/autonomous.routes.js'
import { chatRoutes } from './modules/chat/chat.routes.js'
import { controlRoutes } from './modules/control/control.routes.js'
import { evolutionRoutes } from './modules/evolution/evolution.routes.js'
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js'
import { gitRoutes } from './modules/git/git.routes.js'
import { registerAuditTrail } from './modules/enterprise/audit-trail.js'
import { enterpriseRoutes } from './modules/enterprise/enterprise.routes.js'
import { healthRoutes } from './modules/health/health.routes.js'
import { identityRoutes } from './modules/identity/identity.routes.js'
import { ingressRoutes } from './modules/ingress/ingress.routes.js'
import { insightRoutes } from './modules/insight/insight.routes.js'
import { mergeRoutes } from './modules/merge/merge.routes.js'
import { memoryRoutes } from './modules/memory/memory.routes.js'
import { nervousRoutes } from './modules/nervous/nervous.routes.js'
import { missionRoutes } from './modules/missions/missions.routes.js'
import { rpcRoutes } from './modules/rpc/rpc.routes.js'
import { runFlowRoutes } from './modules/run-flows/run-flows.routes.js'
import { statusRoutes } from './modules/status/status.routes.js'
import { submissionRoutes } from './modules/submissions/submissions.routes.js'
import { taskRoutes } from './modules/tasks/tasks.routes.js'
import { registerTerminal } from './modules/terminal/terminal.plugin.js'
import { tokenPrincipal } from './principal.js'
import { forgetMintedToken, type ResolvedApiToken } from './runtime/api-token.js'
import { startTicker } from './runtime/ticker.js'
import { removeHandshake, writeHandshake } from './runtime/handshake.js'
import { streamRoutes } from './streams/streams.routes.js'

export interface OrchestratorHttpOptions {
  orchestrator: Orchestrator
  token: ResolvedApiToken
  host: string
  version: string
  logger: FastifyBaseLogger
  /** Requests per 60 s per remote client (0 = off; loopback is exempt). */
  rateLimit: number
  approvalSweepMs: number
  clock: () => Date
}

const DOCS_PREFIXES = ['/docs', '/openapi.json', '/openapi.yaml']
const TAGS = [
  'health',
  'status',
  'tasks',
  'control',
  'config',
  'insight',
  'memory',
  'git',
  'streams',
  'process',
  'missions',
  'rpc',
  'approvals',
  'run-flow',
  'merge',
  'identity',
  'enterprise',
  'autonomous',
  'nervous',
  'evolution',
  'terminal',
  'chat'
]

/** The orchestrator as a Fastify app (not listening); closing it releases the orchestrator too. */
export async function buildOrchestratorApp(options: OrchestratorHttpOptions): Promise<App> {
  const { orchestrator: o, token, logger } = options
  const app = createServer({
    logger,
    errorFormatter: orchestratorErrorFormatter,
    fastify: { rewriteUrl: rewriteV1Request },
    // Dashboards and CLIs hold SSE streams open, all from loopback: the per-address cap must allow many.
    connections: { maxConnectionsPerClient: 4096 },
    notFound: orchestratorNotFound
  })
  // The reference server's JSON headers, HSTS included (browsers ignore it over plain HTTP).
  securityHeaders(app, { hstsMaxAgeSeconds: 31_536_000, xssProtectionOff: true })
  requestLog(app)
  const terminal = registerTerminal({ orchestrator: o, logger })
  registerGates(app, {
    auth: { token: token.token, disabled: token.disabled, defaultDeny: token.defaultDeny },
    terminal: terminal.gate,
    // The API token stands for the project's owner: the token's fingerprint names it in records.
    principal: tokenPrincipal(token.fingerprint ?? 'api:unauthenticated'),
    oidc: o.identity.oidcBearer,
    strictTenant: o.identity.strictTenant,
    permissionsOf: (roles) => o.enterprise.permissionsOf(roles),
    rateRules: o.rateRules,
    assertControl: (caller) => o.policy.assertControl(caller),
    assertFeature: (feature) => {
      if (feature === 'run_flow_v2') o.runFlows.assertEnabled()
    },
    publicPrefixes: DOCS_PREFIXES,
    rateLimit: { max: options.rateLimit, windowMs: 60_000 }
  })

  // Before any route: every route's answers pass the trail (writes, denials, sensitive reads).
  registerAuditTrail(app, { audit: o.audit, onError: (error) => logger.error({ err: error }, 'orchestrator: audit append failed') })

  await openApiDocs(app, {
    name: 'orchestrator',
    description: 'Local project orchestration: plans sprints of tasks and runs them through coding agents in git worktrees.',
    credentials:
      '`quartet serve` writes the API token to `<project>/.quartet/runtime/api-token` (or uses QUARTET_API_TOKEN): paste the ' +
      'file\'s content under **Authorize** (`Authorization: Bearer <token>`); `curl -H "authorization: Bearer $(cat ' +
      '.quartet/runtime/api-token)"` from the project directory.',
    version: options.version,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'the orchestrator API token' } },
    security: [{ bearer: [] }],
    tags: TAGS.map((name) => ({ name }))
  })

  // Most action routes take an optional body: a bodiless POST means "no options".
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method === 'POST' && (request.body === undefined || request.body === null)) request.body = {}
    done()
  })

  await app.register(
    healthRoutes({
      version: options.version,
      projectRoot: o.projectRoot,
      terminalEnabled: terminal.enabled(),
      clock: options.clock,
      checkDatabase: o.checkDatabase
    })
  )
  await app.register(enterpriseRoutes({ enterprise: o.enterprise }))
  await app.register(identityRoutes({ exchange: o.identity.exchange }))
  await app.register(controlRoutes({ engine: o.engine, projectConfig: o.projectConfig }))
  await app.register(statusRoutes({ status: o.status, views: o.views }))
  await app.register(taskRoutes({ tasks: o.tasks, views: o.views }))
  await app.register(insightRoutes({ insight: o.insight }))
  await app.register(gitRoutes({ git: o.git }))
  await app.register(approvalRoutes({ approvals: o.approvals }))
  await app.register(memoryRoutes({ reads: o.memory.reads, projectId: o.projectId }))
  await app.register(submissionRoutes({ submissions: o.submissions }))
  await app.register(missionRoutes({ missions: o.missions }))
  await app.register(runFlowRoutes({ flows: o.runFlows }))
  await app.register(mergeRoutes({ review: o.review, merges: o.merges }))
  await app.register(autonomousRoutes({ autonomous: o.autonomous }))
  await app.register(ingressRoutes({ ingress: o.ingress }))
  await app.register(nervousRoutes({ nervous: o.nervous }))
  await app.register(evolutionRoutes({ evolution: o.evolution }))
  await app.register(
    rpcRoutes({
      projectRoot: o.projectRoot,
      status: o.status,
      engine: o.engine,
      approvals: o.approvalRequests,
      insight: o.insight,
      terminal: o.terminal
    })
  )
  await terminal.register(app)
  await app.register(chatRoutes({ chat: o.chat }))
  await app.register(dashboardRoutes({ token: token.disabled ? undefined : (token.token ?? undefined) }))
  await app.register(streamRoutes({ hub: o.events, projectId: o.projectId, status: o.status, tasks: o.tasks }))

  // Each tick also settles submissions whose request another process (the CLI) closed.
  const sweeper = startExpirySweeper({
    service: { sweepExpired: () => o.sweepApprovals() },
    intervalMs: options.approvalSweepMs,
    onError: (error) => logger.warn({ err: error }, 'orchestrator: approval expiry sweep failed')
  })

  // A job that dies is orphaned (and job_orphaned streamed) within seconds, whether anyone reads or not.
  const jobWatch = o.runControl.watchJobs(o.projectId, {
    onError: (error) => logger.warn({ err: error }, 'orchestrator: job watch failed')
  })
  const autonomousLoop = startTicker({
    ticker: o.autonomous,
    intervalMs: () => o.config.current().autonomous.tick_seconds * 1000,
    onError: (error) => logger.warn({ err: error }, 'orchestrator: autonomous tick failed')
  })
  const nervousLoop = startTicker({
    ticker: o.nervous,
    intervalMs: () => o.config.current().nervous.tick_seconds * 1000,
    onError: (error) => logger.warn({ err: error }, 'orchestrator: nervous tick failed')
  })

  let listened = false
  app.addHook('onListen', (done) => {
    listened = true
    const address = app.server.address() as AddressInfo | null
    if (address) {
      writeHandshake({
        projectRoot: o.projectRoot,
        port: address.port,
        host: options.host,
        version: options.version,
        ...(token.file ? { tokenFile: token.file } : {})
      })
    }
    done()
  })
  app.addHook('onClose', (_instance, done) => {
    // A server that never listened (its port was taken) leaves no fresh token behind: the next
    // command would read it and present it to whichever server does hold the port.
    if (!listened && token.source === 'minted') forgetMintedToken(token)
    removeHandshake(o.projectRoot)
    sweeper.stop()
    jobWatch.stop()
    autonomousLoop.stop()
    nervousLoop.stop()
    terminal
      .close()
      .catch((error: unknown) => logger.warn({ err: error }, 'orchestrator: closing the terminal failed'))
      .finally(() => {
        o.close()
        done()
      })
  })
  logger.debug({ projectRoot: o.projectRoot, projectId: o.projectId, host: os.hostname() }, 'orchestrator ready')
  return app
}
