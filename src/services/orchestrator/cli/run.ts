import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from '../cli.js'
import { RECOVERY_COMMAND } from '../engine/reconcile.js'
import { LOCAL_PRINCIPAL } from '../modules/process/principal.js'
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
    const { repositories: repos, projectId } = context
    const afterSeq = await repos.events.latestSeq(projectId)
    // The CLI acts as the local principal: its runs are missions of the local tenant.
    const started = await context.engine.start({ owner: { tenantId: LOCAL_PRINCIPAL.tenantId }, resume: options.resume === true })
    const { job } = started
    const sprint = await repos.sprints.get(job.sprint_id)
    const tasks = await repos.tasks.listBySprint(job.sprint_id)
    if (started.created) {
      out(
        `${options.resume ? 'Resuming' : 'Started'} sprint ${style.bold(job.sprint_id)}${sprint ? ` "${sprint.title}"` : ''}: ` +
          `job ${job.id}, pid ${started.pid ?? '?'}, ${tasks.length} task${tasks.length === 1 ? '' : 's'}.`
      )
    } else {
      out(
        `A run is already active: job ${job.id} (pid ${job.pid ?? 'starting'}) of sprint ${job.sprint_id}` +
          `${options.resume ? '; nothing to resume while it runs' : ''}. Following it.`
      )
    }
    if (options.detach) {
      out(`It runs in the background: quartet status · quartet logs <task> -f · quartet kill`)
      return EXIT_OK
    }
    const end = await followJob(context, {
      jobId: job.id,
      sprintId: job.sprint_id,
      afterSeq: started.created ? afterSeq : await repos.events.latestSeq(projectId),
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
  const { repositories: repos } = context
  const job = (await repos.jobs.get(jobId))!
  const tasks = await repos.tasks.listBySprint(job.sprint_id)
  const unfinished = tasks.filter((t) => t.status !== 'DONE')
  out('')
  if (job.status === 'orphaned') {
    out(`${statusText('ORPHANED')}: the job died (${job.error ?? 'unknown reason'}); finished work is kept on its branches.`)
    out(`Recover with: ${RECOVERY_COMMAND}`)
    return EXIT_ORPHANED
  }
  const done = tasks.length - unfinished.length
  out(
    `Sprint ${job.sprint_id}: ${done}/${tasks.length} task${tasks.length === 1 ? '' : 's'} DONE` +
      `${job.status === 'killed' ? ' (killed)' : job.status === 'failed' ? ` (job failed: ${job.error ?? 'unknown'})` : ''}.`
  )
  for (const task of tasks) {
    const where = task.branch ? `  ${style.dim(task.branch)}` : ''
    out(`  ${task.id.padEnd(8)} ${statusText(task.status, 9)} ${task.status === 'DONE' ? '' : firstLine(task.reason)}${where}`)
  }
  if (unfinished.length === 0 && job.status === 'completed') return EXIT_OK
  const view = await context.runControl.statusView(context.projectId)
  if (view.recoveryCommand) out(`Continue with: ${view.recoveryCommand}`)
  out(`Worker logs: quartet logs <task>`)
  return EXIT_FAILED
}
