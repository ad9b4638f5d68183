import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { RECOVERY_COMMAND } from '../engine/run-control.js'
import type { ProjectContext } from './context.js'
import { requireValidConfig, withProject } from './context.js'
import { followJob } from './follow.js'
import { EXIT_FAILED, EXIT_OK, EXIT_ORPHANED, firstLine, isTty, out, statusText, style } from './output.js'

/**
 * `quartet run [--resume] [--detach]`: starts (or resumes) the detached job, then follows it
 * until the sprint ends. Exit 0 when every task is DONE, 1 when any is not, 3 when the job died.
 */
export function runCommand(runtime: CliRuntime, options: ProjectOptions & { resume?: boolean; detach?: boolean }): Promise<number> {
  return withProject(runtime, options, async (context) => {
    requireValidConfig(context)
    const { engine, status, tasks: taskReads } = context.orchestrator
    const afterSeq = await status.latestEventSeq()
    // The operator's runs are missions of the operator's tenant.
    const started = await engine.start(context.caller, { owner: { tenantId: context.caller.tenantId }, resume: options.resume === true })
    const { job } = started
    const sprint = await status.findSprint(job.sprintId)
    const tasks = await taskReads.tasksOf(job.sprintId)
    if (started.created) {
      out(
        `${options.resume ? 'Resuming' : 'Started'} sprint ${style.bold(job.sprintId)}${sprint ? ` "${sprint.title}"` : ''}: ` +
          `job ${job.id}, pid ${started.pid ?? '?'}, ${tasks.length} task${tasks.length === 1 ? '' : 's'}.`
      )
    } else {
      out(
        `A run is already active: job ${job.id} (pid ${job.pid ?? 'starting'}) of sprint ${job.sprintId}` +
          `${options.resume ? '; nothing to resume while it runs' : ''}. Following it.`
      )
    }
    if (options.detach) {
      out(`It runs in the background: quartet status · quartet logs <task> -f · quartet kill`)
      return EXIT_OK
    }
    const end = await followJob(context, {
      jobId: job.id,
      sprintId: job.sprintId,
      afterSeq: started.created ? afterSeq : await status.latestEventSeq(),
      tty: isTty()
    })
    if (end.kind === 'interrupted') {
      out('')
      out(`Stopped following. The run goes on in the background (job ${job.id}).`)
      out('  quartet status          see it      quartet run    follow it again')
      out('  quartet kill            stop it     quartet logs <task> -f')
      return 130
    }
    return summarize(context, end.job.id)
  })
}

async function summarize(context: ProjectContext, jobId: number): Promise<number> {
  const { status, tasks: taskReads } = context.orchestrator
  const job = (await status.findJob(jobId))!
  const tasks = await taskReads.tasksOf(job.sprintId)
  const unfinished = tasks.filter((t) => t.status !== 'DONE')
  out('')
  if (job.status === 'orphaned') {
    out(`${statusText('ORPHANED')}: the job died (${job.error ?? 'unknown reason'}); finished work is kept on its branches.`)
    out(`Recover with: ${RECOVERY_COMMAND}`)
    return EXIT_ORPHANED
  }
  const done = tasks.length - unfinished.length
  out(
    `Sprint ${job.sprintId}: ${done}/${tasks.length} task${tasks.length === 1 ? '' : 's'} DONE` +
      `${job.status === 'killed' ? ' (killed)' : job.status === 'failed' ? ` (job failed: ${job.error ?? 'unknown'})` : ''}.`
  )
  for (const task of tasks) {
    const where = task.branch ? `  ${style.dim(task.branch)}` : ''
    out(`  ${task.id.padEnd(8)} ${statusText(task.status, 9)} ${task.status === 'DONE' ? '' : firstLine(task.reason)}${where}`)
  }
  if (unfinished.length === 0 && job.status === 'completed') return EXIT_OK
  const view = await context.orchestrator.runControl.statusView(context.projectId)
  if (view.recoveryCommand) out(`Continue with: ${view.recoveryCommand}`)
  out(`Worker logs: quartet logs <task>`)
  return EXIT_FAILED
}
