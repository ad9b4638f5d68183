import path from 'node:path'
import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { withProject } from './context.js'
import { EXIT_OK, out, style } from './output.js'

/**
 * `quartet cleanup`: removes the task worktrees (and their branches) whose work is committed and
 * merged into the current branch; lists every one it keeps and why. Refused while a run is active.
 */
export function cleanupCommand(runtime: CliRuntime, options: ProjectOptions): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const report = await context.orchestrator.engine.cleanup(context.caller)
    const where = (file: string) => path.relative(context.projectRoot, file) || file
    for (const removed of report.removed) out(`${style.green('removed')}  ${removed.branch}  ${where(removed.path)}`)
    for (const kept of report.kept) out(`${style.yellow('kept')}     ${kept.branch}  ${where(kept.path)}: ${kept.reason}`)
    if (report.removed.length === 0 && report.kept.length === 0) out('Nothing to clean up: no task worktrees.')
    else
      out(
        `${report.removed.length} removed, ${report.kept.length} kept` +
          `${report.kept.length > 0 ? ' (merge or commit that work, then run quartet cleanup again)' : ''}.`
      )
    return EXIT_OK
  })
}
