import fs from 'node:fs'
import path from 'node:path'
import { jobEntryCommand } from './job-command.js'
import type { EnginePlatform } from './types.js'

export interface DetachedJobCommand {
  command: string
  args: readonly string[]
  /** The job's stdout and stderr are appended here (the launcher may be gone long before the job). */
  logFile: string
  env: NodeJS.ProcessEnv
  cwd: string
}

/**
 * Starts a job process that outlives its launcher: its own session and process group (so a
 * terminal's Ctrl-C or the server's exit does not reach it), no pipes back to the launcher,
 * and not counted in the launcher's event loop.
 */
export function launchDetachedJob(job: DetachedJobCommand, platform: Pick<EnginePlatform, 'spawn'>): { pid: number } {
  fs.mkdirSync(path.dirname(job.logFile), { recursive: true })
  const log = fs.openSync(job.logFile, 'a')
  try {
    const child = platform.spawn(job.command, job.args, { cwd: job.cwd, env: job.env, detached: true, stdio: ['ignore', log, log] })
    if (child.pid === undefined) {
      // The spawn failure is also emitted as an 'error' event; it is reported by the throw instead.
      child.once('error', () => {})
      throw new Error(`could not start ${job.command}`)
    }
    child.unref()
    return { pid: child.pid }
  } finally {
    fs.closeSync(log)
  }
}

export interface JobLauncherOptions {
  projectRoot: string
  dataDir: string
  /** DATABASE_URL the job process opens (SQLite in dataDir when undefined). */
  databaseUrl: string | undefined
  platform: Pick<EnginePlatform, 'spawn'>
}

/** Launches `job-main` for a queued job of this project; answers its pid. */
export function createJobLauncher(options: JobLauncherOptions): (jobId: number) => number {
  return (jobId) => {
    const { command, args } = jobEntryCommand(['--job', String(jobId), '--project', options.projectRoot, '--data-dir', options.dataDir])
    const env: NodeJS.ProcessEnv = { ...process.env }
    if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl
    else delete env.DATABASE_URL
    const logFile = path.join(options.dataDir, 'orchestrator', 'jobs', `${jobId}.log`)
    return launchDetachedJob({ command, args, env, cwd: options.projectRoot, logFile }, options.platform).pid
  }
}
