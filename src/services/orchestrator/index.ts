import { selfCommandLine } from '../../core/cli/self-command.js'
import type { ServiceDefinition, StartupNote } from '../../core/service.js'
import { buildOrchestratorApp } from './app.js'
import { createOrchestrator } from './compose.js'
import { orchestratorConfig, type OrchestratorSettings } from './config.js'
import { orchestratorMigrations } from './migrations/index.js'
import { registerServerSecret } from '../../core/http/redact-url.js'
import { resolveApiToken } from './runtime/api-token.js'
import { packageVersion } from './version.js'

export { orchestratorMigrations } from './migrations/index.js'

export const orchestratorService: ServiceDefinition<OrchestratorSettings> = {
  name: 'orchestrator',
  description: 'local project-orchestration server: plans and runs sprints of tasks through coding agents',
  migrations: orchestratorMigrations,
  config: orchestratorConfig,
  async create({ config, settings, database, logger, platform }) {
    const orchestratorLogger = logger.child({ service: 'orchestrator' })
    const orchestrator = await createOrchestrator({
      database,
      platform,
      projectRoot: settings.projectRoot,
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      controlMutationsSwitch: settings.controlMutations,
      logger: orchestratorLogger,
      env: process.env,
      memoryTermIndex: true
    })
    // A job that died while no server watched is shown as orphaned from the first request on.
    await orchestrator.runControl.reconcileAll()
    const token = resolveApiToken({
      explicit: settings.apiToken,
      env: { ...process.env, QUARTET_API_AUTH_DISABLED: settings.authDisabled ? '1' : undefined },
      projectConfigToken: orchestrator.config.read().config.api_auth_token,
      projectRoot: settings.projectRoot,
      host: config.host
    })
    registerServerSecret(token.token)
    const app = await buildOrchestratorApp({
      orchestrator,
      token,
      host: config.host,
      version: packageVersion(),
      logger: orchestratorLogger,
      rateLimit: settings.rateLimit,
      approvalSweepMs: settings.approvalSweepMs,
      clock: platform.clock
    })
    const notes: StartupNote[] = [`project: ${settings.projectRoot}`]
    if (token.warning) notes.push({ warning: `auth: WARNING ${token.warning}` })
    if (token.token) notes.push(`auth: bearer token ${token.fingerprint}${token.file ? ` in ${token.file}` : ` (${token.source})`}`)
    const project = ['--project', settings.projectRoot]
    notes.push(
      { hint: 'plan and run', command: `${selfCommandLine(['plan', ...project])} && ${selfCommandLine(['run', ...project])}` },
      { hint: 'status', command: selfCommandLine(['status', ...project]) }
    )
    if (!settings.controlMutations) {
      notes.push('      control over HTTP (plan, start, kill …) is off: QUARTET_CONTROL_MUTATIONS=1 or api.control_mutations to allow it')
    }
    // Running jobs are detached processes: they keep going while the server restarts.
    return { app, notes }
  }
}
