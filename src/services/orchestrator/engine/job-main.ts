/**
 * The detached job process: `node job-main.js --job <id> --project <dir> --data-dir <dir>`
 * (DATABASE_URL in the environment for PostgreSQL). It outlives the server or CLI that started
 * it, runs the sprint through the orchestrator built by the composition root, and exits when the
 * job ends.
 */
import path from 'node:path'
import { parseArgs } from 'node:util'
import { openDatabase } from '../../../core/db/database.js'
import { stderrLogger } from '../../../core/logger.js'
import { nodePlatform } from '../../../core/platform.js'
import { createOrchestrator } from '../compose.js'

const { values } = parseArgs({ options: { job: { type: 'string' }, project: { type: 'string' }, 'data-dir': { type: 'string' } } })
const jobId = Number(values.job)
if (!Number.isSafeInteger(jobId) || !values.project || !values['data-dir']) {
  process.stderr.write('usage: job-main --job <id> --project <dir> --data-dir <dir>\n')
  process.exit(2)
}
const projectRoot = path.resolve(values.project)
const dataDir = path.resolve(values['data-dir'])
const databaseUrl = process.env.DATABASE_URL

const database = await openDatabase({ url: databaseUrl, sqlitePath: path.join(dataDir, 'quartet.db'), poolSize: 4 })
let exitCode: number
try {
  const orchestrator = await createOrchestrator({
    database,
    platform: nodePlatform(),
    projectRoot,
    dataDir,
    databaseUrl,
    // The job acts as the engine; the control switch is for API callers only.
    controlMutationsSwitch: false,
    logger: stderrLogger()
  })
  const result = await orchestrator.runJob({ jobId, handleSignals: true, supervise: true })
  orchestrator.close()
  process.stdout.write(`job ${jobId}: ${result.status}${result.error ? ` (${result.error})` : ''}\n`)
  exitCode = result.status === 'failed' ? 1 : 0
} catch (error) {
  process.stderr.write(`job ${jobId} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  exitCode = 1
} finally {
  await database.close()
}
process.exit(exitCode)
