/**
 * What an orchestrator command works on: the project, its state in the database, and the same
 * engine service the HTTP routes use — built the way app.ts builds it, without a server.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Config } from '../../../core/config/config.js'
import type { Database } from '../../../core/db/database.js'
import { nodePlatform } from '../../../core/platform.js'
import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from '../cli.js'
import { orchestratorConfig, type OrchestratorSettings } from '../config.js'
import { idMaker } from '../ids.js'
import { createEngineService, type EngineService } from '../engine/engine.service.js'
import { createRunControl, type RunControl } from '../engine/reconcile.js'
import type { EnginePlatform } from '../engine/types.js'
import { loadProjectConfig, projectConfigPath, type ProjectConfigResult } from '../project/config.js'
import type { OrchestratorDb, TaskRow } from '../state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from '../state/repositories.js'
import { CliError, configErrorLines, describeError, err, EXIT_USAGE } from './output.js'

export interface ProjectContext {
  config: Config
  projectRoot: string
  dataDir: string
  projectId: number
  database: Database
  repositories: OrchestratorRepositories
  runControl: RunControl
  engine: EngineService
  platform: EnginePlatform
  projectConfig: ProjectConfigResult
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
    const enginePlatform: EnginePlatform = { spawn: platform.spawn, fetch: platform.fetch, clock: platform.clock }
    const repositories = createOrchestratorRepositories(database.db as OrchestratorDb, platform.clock)
    const projectId = await repositories.projects.ensure(projectRoot)
    const projectConfig = loadProjectConfig(projectRoot)
    const killGraceMs = projectConfig.errors.length === 0 ? Math.round(projectConfig.config.engine.kill_grace_seconds * 1000) : 5000
    const runControl = createRunControl({ repositories, clock: platform.clock, killGraceMs })
    const engine = createEngineService({
      projectRoot,
      projectId,
      dataDir: config!.dataDir,
      databaseUrl: config!.databaseUrl,
      repositories,
      runControl,
      platform: enginePlatform,
      // A server watching this project tails the event log itself; nothing to wake here.
      notify: () => {},
      newId: idMaker(platform)
    })
    return {
      config: config!,
      projectRoot,
      dataDir: config!.dataDir,
      projectId,
      database,
      repositories,
      runControl,
      engine,
      platform: enginePlatform,
      projectConfig
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
    await context.database.close()
  }
}

/** Commands that start work need a valid project config: each bad key is named. */
export function requireValidConfig(context: Pick<ProjectContext, 'projectConfig' | 'projectRoot'>): void {
  if (context.projectConfig.errors.length > 0)
    throw new CliError(configErrorLines(projectConfigPath(context.projectRoot), context.projectConfig.errors).join('\n'), EXIT_USAGE)
}

/** A task by its id (`s1-2`) or by its key in the newest sprint (`2`); unknown ones are explained. */
export async function findTask(context: ProjectContext, ref: string): Promise<TaskRow> {
  const { repositories: repos } = context
  const sprint = await repos.sprints.latest(context.projectId)
  const byId = await repos.tasks.get(ref)
  if (byId) {
    const owner = await repos.sprints.get(byId.sprint_id)
    if (owner?.project_id === context.projectId) return byId
  }
  if (!sprint)
    throw new CliError(`Unknown task ${JSON.stringify(ref)}: nothing is planned in ${context.projectRoot} (run quartet plan first).`)
  const tasks = await repos.tasks.listBySprint(sprint.id)
  const byKey = tasks.find((t) => t.key === ref)
  if (byKey) return byKey
  throw new CliError(`Unknown task ${JSON.stringify(ref)}. Tasks of sprint ${sprint.id}: ${tasks.map((t) => t.id).join(', ') || 'none'}.`)
}
