import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { withProject } from './context.js'
import { EXIT_FAILED, EXIT_OK, out, style } from './output.js'

/**
 * `quartet review [<sprint|flow|task>] [--stat]`: each DONE task's diff against the base its
 * worktree was made from (the newest sprint's when nothing is named); a task named alone is
 * shown whatever its status. A task whose conflict an agent resolved is shown against its target,
 * with the commands that land or undo the resolution.
 */
export function reviewCommand(runtime: CliRuntime, ref: string | undefined, options: ProjectOptions & { stat?: boolean }): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const { scope, diffs } = await context.orchestrator.review.review(ref, { stat: options.stat === true, cap: Number.MAX_SAFE_INTEGER })
    if (diffs.length === 0) {
      out(`Nothing to review in ${scope}: no DONE task.`)
      return EXIT_OK
    }
    let missing = 0
    for (const diff of diffs) {
      const range = diff.base && diff.head ? `${diff.base.slice(0, 8)}..${diff.head.slice(0, 8)}` : (diff.note ?? 'no diff')
      const counts = `${diff.files.length} file(s) ${style.green(`+${diff.insertions}`)} ${style.red(`-${diff.deletions}`)}`
      out(`${style.bold(`${diff.taskId}  ${diff.title}`)}  ${diff.status}  ${diff.branch ?? '-'}  ${range}  ${counts}`)
      if (diff.note) missing++
      const resolved = diff.resolution
      if (resolved) {
        out(
          `  ${style.cyan('RESOLVED')} by an agent in merge ${resolved.mergeId} (conflicts in ${resolved.files.join(', ') || '-'}), ` +
            `not landed: this is its branch against ${resolved.target}, the task's changes and the resolution`
        )
        out(`  land it: ${resolved.land}`)
        if (resolved.undo) out(`  undo it: ${resolved.undo}  (the resolution stays at ${resolved.commit.slice(0, 10)})`)
      }
      if (options.stat) {
        for (const file of diff.files) out(`  ${file.path}  ${style.green(`+${file.insertions}`)} ${style.red(`-${file.deletions}`)}`)
      } else if (diff.diff !== '') out(diff.diff.trimEnd())
      out()
    }
    out(`${diffs.length} task(s) in ${scope}${missing > 0 ? `, ${missing} without a branch to diff` : ''}.`)
    return missing > 0 ? EXIT_FAILED : EXIT_OK
  })
}
