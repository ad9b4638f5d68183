import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { withProject } from './context.js'
import type { Lifecycle } from '../engine/run-control.js'
import type { TaskXverify } from '../state/domain.js'
import { duration, EXIT_OK, firstLine, out, statusText, style, table } from './output.js'

/** Exit codes of `quartet status` (docs/orchestrator.md): 0 complete, idle or running well; 1 a task is NO_GO; 2 orphaned or aborted. */
export const STATUS_EXIT = { ok: 0, noGo: 1, stopped: 2 } as const

function statusExit(lifecycle: Lifecycle, noGo: number): number {
  if (lifecycle === 'ORPHANED' || lifecycle === 'ABORTED') return STATUS_EXIT.stopped
  return noGo > 0 ? STATUS_EXIT.noGo : STATUS_EXIT.ok
}

/** `quartet status [--json]`: reconciled first, so a dead job shows as ORPHANED (and its agents are stopped), never as running. */
export function statusCommand(runtime: CliRuntime, options: ProjectOptions & { json?: boolean }): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const view = await context.orchestrator.runControl.statusView(context.projectId)
    const rows = view.sprint ? await context.orchestrator.tasks.tasksOf(view.sprint.id) : []
    const tasks = rows.map((t) => ({
      id: t.id,
      key: t.key,
      title: t.title,
      status: t.status,
      attempts: t.attempts,
      agent: t.agent,
      reason: t.reason,
      branch: t.branch,
      commitSha: t.commitSha,
      startedAt: t.startedAt,
      finishedAt: t.finishedAt,
      xverify: t.xverify
    }))
    if (options.json) {
      out(JSON.stringify({ projectRoot: context.projectRoot, ...view, tasks }, null, 2))
      return statusExit(view.lifecycle, view.progress?.noGo ?? 0)
    }
    out(`project    ${context.projectRoot}`)
    out(`lifecycle  ${statusText(view.lifecycle)}${view.sprint?.stopReason && !view.active ? ` (${view.sprint.stopReason})` : ''}`)
    if (!view.sprint) {
      out('Nothing planned yet: write DIRECTIVES.md, then quartet plan.')
      return EXIT_OK
    }
    const s = view.sprint
    out(
      `sprint     ${s.id} "${s.title}" ${statusText(s.status)}${s.startedAt ? `, started ${s.startedAt}` : ''}` +
        `${s.finishedAt ? `, finished ${s.finishedAt}` : ''}`
    )
    if (view.job) {
      const beat = view.job.heartbeatAt ? `, last heartbeat ${duration(Date.now() - Date.parse(view.job.heartbeatAt))} ago` : ''
      out(`job        ${view.job.id} ${view.job.status}, pid ${view.job.pid ?? '-'} on ${view.job.hostname ?? '-'}${beat}`)
    }
    const p = view.progress!
    out(
      `progress   ${p.done}/${p.total} done · ${p.active} active · ${p.pending} pending · ${p.noGo} no-go · ` +
        `${p.blocked} blocked · ${p.cancelled} cancelled · ${p.orphaned} orphaned`
    )
    // Agents that report no cost (Codex, Gemini CLI …) add none: $0 would read as free, so it is "cost unknown".
    const cost = s.costMicroUsd > 0 ? `$${(s.costMicroUsd / 1e6).toFixed(4)}` : 'cost unknown'
    if (s.tokensUsed > 0 || s.costMicroUsd > 0) out(`usage      ${s.tokensUsed} tokens, ${cost}`)
    out('')
    const lines = table(
      ['TASK', 'STATUS', 'TRY', 'BRANCH', 'XVERIFY', 'REASON'],
      tasks.map((t) => [t.id, t.status, String(t.attempts), t.branch ?? '-', xverifyText(t.xverify), firstLine(t.reason)])
    )
    for (const [i, line] of lines.entries())
      out(i === 0 ? style.bold(line) : line.replace(tasks[i - 1]!.status, statusText(tasks[i - 1]!.status)))
    if (view.recoveryCommand) {
      out('')
      out(`Recover with: ${style.bold(view.recoveryCommand)}   (finished work stays on its branches)`)
    }
    return statusExit(view.lifecycle, p.noGo)
  })
}

/** The cross-verify column: the verdict, with "closed" only when its receipt closed the claim. */
function xverifyText(verdict: TaskXverify | null): string {
  if (!verdict) return '-'
  return verdict.closed ? `${verdict.verdict} (closed)` : verdict.verdict
}
