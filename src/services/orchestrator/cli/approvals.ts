/**
 * `quartet approvals list|show|decide`. Deciding is the interactive live-auth surface: it needs a
 * terminal on stdin and the request id typed back, so no script or agent can decide by piping.
 */
import readline from 'node:readline/promises'
import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { closureOf, type ApprovalEntryView } from '../modules/approvals/approvals.render.js'
import { assertApprovalId, type ApprovalsService } from '../modules/approvals/approvals.service.js'
import { withProject, type ProjectContext } from './context.js'
import { CliError, err, EXIT_OK, EXIT_USAGE, out, style, table } from './output.js'

export const NOT_INTERACTIVE =
  'quartet approvals decide needs an interactive terminal: it asks you to type the request id to confirm (stdin is not a TTY).'

// The local operator's tenant; a decision settles a parked submission here, at once.
function approvalsOf(context: ProjectContext): ApprovalsService {
  return context.orchestrator.approvals
}

function printEntry(entry: ApprovalEntryView): void {
  const r = entry.request
  out(`id         ${style.bold(r.id)}  (${entry.category})`)
  out(`summary    ${r.summary}`)
  out(`requester  ${r.requester.id}   scope ${r.scope}   risk ${r.risk}${r.taskId ? `   task ${r.taskId}` : ''}`)
  out(`created    ${r.createdAt}   expires ${r.expiresAt} (then: ${r.defaultAction})`)
  out(`arguments  ${JSON.stringify(r.maskedArgs)}`)
  if (entry.decision)
    out(
      `decision   ${entry.decision.decision} by ${entry.decision.decidedBy} via ${entry.decision.channel} at ${entry.decision.decidedAt}` +
        `${entry.decision.reason ? ` — ${entry.decision.reason}` : ''}`
    )
}

export function listCommand(runtime: CliRuntime, options: ProjectOptions & { json?: boolean; all?: boolean }): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const service = approvalsOf(context)
    const entries = options.all ? Object.values(await service.overview()).flat() : await service.pending()
    if (options.json) {
      out(JSON.stringify(entries, null, 2))
      return EXIT_OK
    }
    if (entries.length === 0) {
      out(options.all ? 'No approval requests.' : 'No pending approval requests.')
      return EXIT_OK
    }
    const lines = table(
      ['ID', 'STATE', 'RISK', 'EXPIRES', 'SUMMARY'],
      entries.map((e) => [e.request.id, e.category, e.request.risk, e.request.expiresAt, e.request.summary])
    )
    for (const [i, line] of lines.entries()) out(i === 0 ? style.bold(line) : line)
    return EXIT_OK
  })
}

export function showCommand(runtime: CliRuntime, id: string, options: ProjectOptions & { json?: boolean }): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const entry = await approvalsOf(context).get(id)
    if (options.json) out(JSON.stringify(entry, null, 2))
    else printEntry(entry)
    return EXIT_OK
  })
}

export interface DecideOptions extends ProjectOptions {
  reason?: string
}

export async function decideCommand(runtime: CliRuntime, id: string, decision: string, options: DecideOptions): Promise<number> {
  if (decision !== 'allow' && decision !== 'deny') {
    err(`The decision must be allow or deny, not ${JSON.stringify(decision)}.`)
    return EXIT_USAGE
  }
  if (process.stdin.isTTY !== true) {
    err(NOT_INTERACTIVE)
    return EXIT_USAGE
  }
  return withProject(runtime, options, async (context) => {
    assertApprovalId(id)
    const service = approvalsOf(context)
    const entry = await service.get(id)
    printEntry(entry)
    const closed = closureOf(entry)
    if (closed) throw new CliError(`${id} is closed: ${closed.text}; nothing to decide.`)
    const prompt = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true })
    let typed: string
    try {
      typed = (await prompt.question(`\nTo ${decision.toUpperCase()} this request, type its id: `)).trim()
    } finally {
      prompt.close()
    }
    if (typed !== id) throw new CliError('The typed id does not match: nothing was decided.')
    const result = await service.decide(context.caller, { id, decision, reason: options.reason, channel: 'cli', idempotencyKey: null })
    out(`${style.bold(id)}: ${result.decision.decision} by ${result.decision.decidedBy} at ${result.decision.decidedAt}`)
    return EXIT_OK
  })
}
