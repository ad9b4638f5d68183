import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { ACTIVE_TASK_STATUSES } from '../engine/types.js'
import { findTask, withProject } from './context.js'
import { EXIT_FAILED, EXIT_OK, out } from './output.js'

/** `quartet kill [task]`: the whole run (job and every agent process group) or one task. */
export function killCommand(runtime: CliRuntime, taskRef: string | undefined, options: ProjectOptions): Promise<number> {
  return withProject(runtime, options, async (context) => {
    if (taskRef !== undefined) {
      const task = await findTask(context, taskRef)
      const result = await context.orchestrator.engine.killTask(context.caller, task.id)
      if (!result.killed) {
        out(`Task ${task.id} is ${task.status}: nothing to kill.`)
        return EXIT_FAILED
      }
      out(
        `Killed task ${task.id}: CANCELLED${groups(result.killedPids)}. ` +
          'The run goes on with the other tasks; tasks that depend on it become BLOCKED.'
      )
      return EXIT_OK
    }
    const { status, tasks, engine } = context.orchestrator
    const job = await status.activeJob()
    const unfinished = job ? await tasks.tasksOf(job.sprintId, [...ACTIVE_TASK_STATUSES, 'PENDING']) : []
    const result = await engine.killAll(context.caller)
    if (!result.killed) {
      out('Nothing to kill: no run is active.')
      return EXIT_OK
    }
    // A job that stops gracefully cancels its tasks itself, so the engine's own list may be empty.
    const after = await Promise.all(unfinished.map((t) => tasks.lookup(t.id)))
    const ids = new Set([...result.cancelledTasks, ...after.filter((t) => t?.status === 'CANCELLED').map((t) => t!.id)])
    const cancelled = ids.size > 0 ? [...ids].sort().join(', ') : 'none'
    out(`Killed job ${result.jobId} (pid ${result.jobPid ?? '-'}); cancelled tasks: ${cancelled}${groups(result.killedPids)}.`)
    out('Work the agents left is kept in their worktrees; continue with: quartet run --resume')
    return EXIT_OK
  })
}

function groups(pids: number[]): string {
  return pids.length > 0 ? `; killed process group${pids.length === 1 ? '' : 's'} ${pids.join(', ')}` : ''
}
