/**
 * The detached job process: `node job-main.js --job <id> --project <dir> --data-dir <dir>`
 * (DATABASE_URL in the environment for PostgreSQL). It outlives the server or CLI that started
 * it, runs the sprint through the real executor, and exits when the job ends.
 */
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { openDatabase } from '../../../core/db/database.js'
import { nodePlatform } from '../../../core/platform.js'
import { loadProjectConfig } from '../project/config.js'
import { createOrchestratorRepositories } from '../state/repositories.js'
import type { OrchestratorDb } from '../state/db.js'
import { createExecutor } from './execute.js'
import { runJob } from './job.js'
import { runProviderTask } from './providers/apply-diff.js'
import { createWorktrees } from './worktrees.js'
import { recordSprintCoverage } from '../modules/insight/coverage.service.js'
import { createApprovalsService } from '../modules/approvals/approvals.service.js'
import { createTaskApprovalGate } from './approval-gate.js'

const { values } = parseArgs({ options: { job: { type: 'string' }, project: { type: 'string' }, 'data-dir': { type: 'string' } } })
const jobId = Number(values.job)
if (!Number.isSafeInteger(jobId) || !values.project || !values['data-dir']) {
  process.stderr.write('usage: job-main --job <id> --project <dir> --data-dir <dir>\n')
  process.exit(2)
}
const projectRoot = path.resolve(values.project)
const dataDir = path.resolve(values['data-dir'])
const platform = nodePlatform()

const database = await openDatabase({ url: process.env.DATABASE_URL, sqlitePath: path.join(dataDir, 'quartet.db'), poolSize: 4 })
let exitCode: number
try {
  const repositories = createOrchestratorRepositories(database.db as OrchestratorDb, platform.clock)
  const job = await repositories.jobs.get(jobId)
  if (!job) throw new Error(`job ${jobId} not found`)
  const { config, errors } = loadProjectConfig(projectRoot)
  if (errors.length > 0) throw new Error(`invalid .quartet/config.json: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`)
  const gitMode = config.engine.use_worktrees && (await createWorktrees(platform).isGitRepo(projectRoot))
  const executeTask = createExecutor({ platform, config, dataDir: path.join(dataDir, 'orchestrator'), runProviderTask })
  const approvals = createApprovalsService({
    repositories,
    projectId: job.project_id,
    dataDir,
    clock: platform.clock,
    newId: () => `apr_${platform.ids.token(12)}`,
    approvalConfig: () => config.approval
  })
  const result = await runJob({
    repositories,
    projectId: job.project_id,
    jobId,
    executeTask,
    config,
    projectRoot,
    dataDir,
    ...(process.env.DATABASE_URL ? {} : { databaseFile: path.join(dataDir, 'quartet.db') }),
    gitMode,
    clock: platform.clock,
    hostname: os.hostname(),
    handleSignals: true,
    approvalGate: createTaskApprovalGate({ service: approvals, requireForRisk: config.approval.require_for_risk }),
    afterSprint: (sprintId) => recordSprintCoverage({ repositories, projectId: job.project_id, sprintId, projectRoot, config, platform })
  })
  process.stdout.write(`job ${jobId}: ${result.status}${result.error ? ` (${result.error})` : ''}\n`)
  exitCode = result.status === 'failed' ? 1 : 0
} catch (error) {
  process.stderr.write(`job ${jobId} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  exitCode = 1
} finally {
  await database.close()
}
process.exit(exitCode)
