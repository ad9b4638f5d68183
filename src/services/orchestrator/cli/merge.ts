import type { CliRuntime } from '../../../core/service.js'
import type { MergeStrategy } from '../state/merges.repository.js'
import type { ProjectOptions } from './options.js'
import { withProject } from './context.js'
import { CliError, EXIT_FAILED, EXIT_OK, out, style } from './output.js'

export interface MergeOptions extends ProjectOptions {
  into?: string
  strategy?: string
  resolveWith?: string
}

const PAINT: Record<string, (text: string) => string> = {
  MERGED: style.green,
  CONFLICT: style.red,
  CHECK_FAILED: style.red,
  RESOLVED: style.cyan
}

/**
 * `quartet merge [<sprint|flow>] [--into <branch>] [--strategy merge|squash|rebase] [--resolve-with <agent>]`: lands the DONE
 * tasks through the merge queue and prints each task's outcome. Exit 0 only when every one merged: a task RESOLVED by an
 * agent has not landed (it waits for review and the next `quartet merge`), so its run exits 1.
 */
export function mergeCommand(runtime: CliRuntime, ref: string | undefined, options: MergeOptions): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const strategy = options.strategy ?? 'merge'
    if (strategy !== 'merge' && strategy !== 'squash' && strategy !== 'rebase')
      throw new CliError(`--strategy must be merge, squash or rebase (got ${strategy})`)
    const run = await context.orchestrator.merges.mergeNow(context.caller, {
      ...(ref === undefined ? {} : { ref }),
      ...(options.into ? { into: options.into } : {}),
      strategy: strategy as MergeStrategy,
      ...(options.resolveWith ? { resolveWith: options.resolveWith } : {})
    })
    for (const item of run.items) {
      const paint = PAINT[item.status] ?? style.yellow
      const detail = item.status === 'MERGED' ? (item.commitSha ?? '').slice(0, 10) : (item.reason ?? '')
      out(`${paint(item.status.padEnd(12))} ${item.taskId}  ${detail}`)
      if (item.status === 'CONFLICT' || item.status === 'RESOLVED') for (const file of item.files) out(`             ${file}`)
      if (item.status === 'RESOLVED') {
        const sprint = ref === undefined ? '' : ` ${ref}`
        out(`             review it: quartet review ${item.taskId}, then land it: quartet merge${sprint} --into ${run.target}`)
      }
    }
    const merged = run.items.filter((i) => i.status === 'MERGED').length
    out(`${merged}/${run.items.length} merged into ${run.target} (merge ${run.id}).${run.error ? ` ${run.error}` : ''}`)
    return merged === run.items.length ? EXIT_OK : EXIT_FAILED
  })
}
