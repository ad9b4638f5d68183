/**
 * What an orchestrator command works on: the project, and the orchestrator built by the one
 * composition root (compose.ts) over the migrated database — the same services the HTTP routes
 * call, acting as the local operator.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Config } from '../../../core/config/config.js'
import type { Database } from '../../../core/db/database.js'
import { stderrLogger } from '../../../core/logger.js'
import { nodePlatform } from '../../../core/platform.js'
import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { createOrchestrator, type Orchestrator } from '../compose.js'
import { orchestratorConfig, type OrchestratorSettings } from '../config.js'
import { cliPrincipal, type Principal } from '../principal.js'
import type { Task } from '../state/domain.js'
import { CliError, configErrorLines, describeError, err, EXIT_USAGE } from './output.js'

export interface ProjectContext {
  config: Config
  projectRoot: string
  dataDir: string
  projectId: number
  database: Database
  orchestrator: Orchestrator
  /** The operator at this terminal. */
  caller: Principal
  clock: () => Date
}

/** The project directory as configured, checked to exist (no database needed). */
export function resolveProject(runtime: CliRuntime | null, options: ProjectOptions): { config: Config | null; projectRoot: string } {
  const config = runtime
    ? runtime.loadConfig({ QUARTET_DATA_DIR: options.dataDir, QUARTET_PROJECT: options.project }, [orchestratorConfig])
    : null
  const projectRoot = config ? (config.services.orchestrator as OrchestratorSettings).projectRoot : path.resolve(options.project ?? '.')
  if (!fs.statSync(projectRoot, { throwIfNoEntry: false })?.isDirectory())
    throw new CliError(`The project directory ${projectRoot} does not exist.`)
  return { config, projectRoot }
}

export async function openProject(runtime: CliRuntime, options: ProjectOptions): Promise<ProjectContext> {
  const { config, projectRoot } = resolveProject(runtime, options)
  const database = await runtime.openDatabase(config!)
  try {
    const platform = nodePlatform()
    const orchestrator = await createOrchestrator({
      database,
      platform,
      projectRoot,
      dataDir: config!.dataDir,
      databaseUrl: config!.databaseUrl,
      controlMutationsSwitch: (config!.services.orchestrator as OrchestratorSettings).controlMutations,
      logger: stderrLogger()
    })
    return {
      config: config!,
      projectRoot,
      dataDir: config!.dataDir,
      projectId: orchestrator.projectId,
      database,
      orchestrator,
      caller: cliPrincipal(os.userInfo().username),
      clock: platform.clock
    }
  } catch (error) {
    await database.close()
    throw error
  }
}

/** Opens the project, runs the command, closes the database; engine and usage errors become messages and exit codes. */
export async function withProject(
  runtime: CliRuntime,
  options: ProjectOptions,
  command: (context: ProjectContext) => Promise<number>
): Promise<number> {
  let context: ProjectContext
  try {
    context = await openProject(runtime, options)
  } catch (error) {
    const { message, exitCode } = describeError(error)
    err(message)
    return exitCode
  }
  try {
    return await command(context)
  } catch (error) {
    const { message, exitCode } = describeError(error)
    err(message)
    return exitCode
  } finally {
    context.orchestrator.close()
    await context.database.close()
  }
}

/** Commands that start work need a valid project config: each bad key is named, one per line. */
export function requireValidConfig(context: Pick<ProjectContext, 'orchestrator'>): void {
  const source = context.orchestrator.config
  const read = source.read()
  if (read.errors.length > 0) throw new CliError(configErrorLines(source.file, read.errors).join('\n'), EXIT_USAGE)
}

/** A task by its id (`s1-2`) or by its key in the newest sprint (`2`); unknown ones are explained. */
export async function findTask(context: ProjectContext, ref: string): Promise<Task> {
  const { status, tasks } = context.orchestrator
  const byId = await tasks.lookup(ref)
  if (byId) return byId
  const sprint = await status.latestSprint()
  if (!sprint)
    throw new CliError(`Unknown task ${JSON.stringify(ref)}: nothing is planned in ${context.projectRoot} (run quartet plan first).`)
  const all = await tasks.tasksOf(sprint.id)
  const byKey = all.find((t) => t.key === ref)
  if (byKey) return byKey
  throw new CliError(`Unknown task ${JSON.stringify(ref)}. Tasks of sprint ${sprint.id}: ${all.map((t) => t.id).join(', ') || 'none'}.`)
}
