import { isAppError } from '../../../core/errors/app-error.js'
import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { CliError, EXIT_OK, EXIT_USAGE, err, out, style, table } from './output.js'
import { requireValidConfig, withProject } from './context.js'

const MODES = ['auto', 'structured', 'ai'] as const
type Mode = (typeof MODES)[number]

/** `quartet plan`: the task table and the planner's warnings; an invalid plan exits 2 with each error on its own line. */
export function planCommand(
  runtime: CliRuntime,
  options: ProjectOptions & { mode?: string; directive?: string; force?: boolean }
): Promise<number> {
  return withProject(runtime, options, async (context) => {
    if (options.mode !== undefined && !(MODES as readonly string[]).includes(options.mode))
      throw new CliError(`--mode must be one of ${MODES.join(', ')} (got ${JSON.stringify(options.mode)}).`)
    requireValidConfig(context)
    let planned
    try {
      planned = await context.orchestrator.engine.plan(context.caller, {
        ...(options.mode ? { mode: options.mode as Mode } : {}),
        ...(options.directive !== undefined ? { directive: options.directive } : {}),
        ...(options.force ? { force: true } : {})
      })
    } catch (error) {
      if (!isAppError(error) || error.code !== 'ORCH_PLAN_INVALID') throw error
      // The engine joins the planner's errors with "; " (each structured one starts "line N:").
      const [headline, rest] = splitOnce(error.message, ': ')
      err(`No sprint planned: ${headline}:`)
      for (const problem of (rest ?? '').split('; ')) if (problem.trim()) err(`  ${problem.trim()}`)
      return EXIT_USAGE
    }
    const config = context.orchestrator.config.current()
    const fallback = config.default_agent ?? Object.keys(config.agents)[0] ?? 'default'
    out(
      `Planned sprint ${style.bold(planned.sprint.id)} "${planned.sprint.title}" ` +
        `(${planned.mode}, ${planned.tasks.length} task${planned.tasks.length === 1 ? '' : 's'})`
    )
    out('')
    if (planned.abandoned) {
      const { sprintId, status, tasks } = planned.abandoned
      out(
        `${style.yellow('Abandoned')} sprint ${sprintId} (${status}): its unfinished tasks ${tasks.join(', ')} are cancelled; ` +
          'their branches and worktrees are kept.'
      )
    }
    const rows = planned.tasks.map((t) => [
      t.id,
      t.title,
      t.dependencies.join(',') || '-',
      t.agent ?? `${fallback} (default)`,
      t.priority,
      t.risk ?? '-'
    ])
    for (const line of table(['TASK', 'TITLE', 'DEPS', 'AGENT', 'PRIORITY', 'RISK'], rows)) out(line)
    if (planned.warnings.length > 0) {
      out('')
      for (const warning of planned.warnings) out(`${style.yellow('warning')} ${warning}`)
    }
    out('')
    out('Next: quartet run   (or quartet run --detach, then quartet status)')
    return EXIT_OK
  })
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator)
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)]
}
