/** What the terminal dashboard shows, derived from the API's answers (pure: the TUI and the plain output share it). */

export interface TaskRow {
  id: string
  title: string
  status: string
  assignedAgent: string | null
  branch: string | null
  attempts: number
  reason: string | null
  startedAt: string | null
  finishedAt: string | null
  filesChanged: string[]
  /** The cross-verify verdict recorded after the task ended DONE (absent from older servers). */
  xverify?: { verdict: string; closed: boolean; reason: string } | null
  /** Tokens and cost over the task's attempts; costUsd null when an agent reported none (absent from older servers). */
  usage?: { inputTokens: number; outputTokens: number; costUsd: number | null }
}

export interface StatusView {
  lifecycle: string
  recoveryCommand: string | null
  sprint: { id: string | null; title?: string; status: string }
  progress: {
    done: number
    active: number
    pending: number
    noGo: number
    blocked: number
    cancelled: number
    orphaned: number
    total: number
  }
  agents: { taskId: string; title: string; stale: boolean; ageMs: number | null; currentAction: string }[]
  alerts: { level: string; message: string }[]
  usage?: { tokensUsed: number; costUsd: number }
}

export interface PendingApproval {
  request: { id: string; summary: string; risk: string; taskId: string | null; expiresAt: string; defaultAction: string }
}

/** A run of GET /api/merge, as far as the dashboard reads it. */
export interface MergeRunRow {
  id: string
  target: string
  items: { taskId: string; status: string; files: string[]; reason: string | null }[]
}

export interface NeedItem {
  kind: string
  text: string
  action: string
  taskId?: string
  approvalId?: string
}

export function needsYou(
  status: StatusView | null,
  tasks: TaskRow[],
  approvals: PendingApproval[],
  merges: MergeRunRow[] = []
): NeedItem[] {
  const items: NeedItem[] = []
  for (const a of approvals) {
    items.push({
      kind: 'approval',
      text: `${a.request.summary} (${a.request.risk} risk${a.request.taskId ? `, ${a.request.taskId}` : ''})`,
      action: `a: decide ${a.request.id}`,
      approvalId: a.request.id,
      ...(a.request.taskId ? { taskId: a.request.taskId } : {})
    })
  }
  if (status?.lifecycle === 'ORPHANED')
    items.push({ kind: 'stalled', text: 'the run lost its job process', action: status.recoveryCommand ?? 'quartet run --resume' })
  for (const agent of status?.agents ?? [])
    if (agent.stale)
      items.push({
        kind: 'stalled',
        text: `${agent.taskId} silent for ${Math.round((agent.ageMs ?? 0) / 1000)}s`,
        action: 'Enter: log',
        taskId: agent.taskId
      })
  for (const t of tasks)
    if (t.status === 'NO_GO' || t.status === 'BLOCKED')
      items.push({
        kind: t.status === 'NO_GO' ? 'failed' : 'blocked',
        text: `${t.id} ${firstLine(t.reason)}`,
        action: 'Enter: log',
        taskId: t.id
      })
  for (const t of tasks)
    if (t.status === 'DONE' && t.xverify && !t.xverify.closed && ['REFUTED', 'UNCLEAR', 'HOLD'].includes(t.xverify.verdict))
      items.push({
        kind: `xverify ${t.xverify.verdict}`,
        text: `${t.id} ${firstLine(t.xverify.reason)}`,
        action: 'Enter: log',
        taskId: t.id
      })
  // Each task's state in the newest run that took it (runs come newest first): a resolution a later run landed needs nobody.
  const latest = new Map<string, { target: string; status: string; files: string[] }>()
  for (const run of merges)
    for (const item of run.items) if (!latest.has(item.taskId)) latest.set(item.taskId, { ...item, target: run.target })
  for (const [taskId, item] of latest)
    if (item.status === 'RESOLVED')
      items.push({
        kind: 'resolved',
        text: `${taskId} conflicts in ${item.files.join(', ') || '-'} resolved by an agent, not landed in ${item.target}`,
        action: `quartet review ${taskId}, then quartet merge`,
        taskId
      })
  for (const alert of status?.alerts ?? []) items.push({ kind: alert.level, text: alert.message, action: '' })
  return items
}

export function firstLine(text: string | null | undefined): string {
  return (text ?? '').split('\n')[0] ?? ''
}

export function elapsed(from: string | null, to: string | null, now: number): string {
  if (!from) return '-'
  const ms = (to ? Date.parse(to) : now) - Date.parse(from)
  if (!Number.isFinite(ms) || ms < 0) return '-'
  const s = Math.floor(ms / 1000)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

export function fit(text: string, width: number): string {
  if (width <= 0) return ''
  const flat = text.replace(/[\r\n\t]+/g, ' ')
  return flat.length <= width ? flat.padEnd(width) : `${flat.slice(0, Math.max(0, width - 1))}…`
}

export function progressLine(status: StatusView | null): string {
  if (!status) return 'no status yet'
  const p = status.progress
  const usage = status.usage ? ` · ${status.usage.tokensUsed} tok $${status.usage.costUsd.toFixed(4)}` : ''
  return `${status.lifecycle} ${p.done}/${p.total} done · ${p.active} active · ${p.pending} queued · ${p.noGo} no-go${usage}`
}

/** A count in at most 5 characters: 950, 12.3k, 123k, 1.2M. */
function shortCount(n: number): string {
  if (n < 1000) return String(n)
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`
  return `${(n / 1_000_000).toFixed(1)}M`
}

/**
 * A task's tokens and cost: "-" before it ran (or from an older server), "unknown" when its agent
 * reported none (the API counts 0 tokens and a null cost then), never 0 or $0 for what is not known.
 */
export function usageCells(t: TaskRow): { tokens: string; cost: string } {
  if (!t.usage || t.attempts === 0) return { tokens: '-', cost: '-' }
  const total = t.usage.inputTokens + t.usage.outputTokens
  const usd = t.usage.costUsd
  return {
    tokens: total === 0 && usd === null ? 'unknown' : shortCount(total),
    cost: usd === null ? 'unknown' : usd < 0.01 ? `$${usd.toFixed(3)}` : usd < 100 ? `$${usd.toFixed(2)}` : `$${Math.round(usd)}`
  }
}

/**
 * One line per task for an 80-column terminal: id, status, agent, elapsed, tries, tokens, cost, the
 * cross-verify verdict when there is one, title.
 */
export function taskLine(t: TaskRow, now: number, width: number): string {
  const time = elapsed(t.startedAt, t.finishedAt, now)
  const usage = usageCells(t)
  const head =
    `${fit(t.id, 8)} ${fit(t.status, 10)} ${fit(t.assignedAgent ?? '-', 8)} ${fit(time, 7)} ${fit(String(t.attempts), 2)} ` +
    `${fit(usage.tokens, 7)} ${fit(usage.cost, 7)} `
  const verdict = t.xverify ? `[${t.xverify.verdict}${t.xverify.closed ? ' ✓' : ''}] ` : ''
  return head + fit(verdict + t.title, Math.max(0, width - head.length))
}
