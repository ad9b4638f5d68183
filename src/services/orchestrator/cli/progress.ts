/**
 * How a followed run is shown: in a pipe or a log file one plain line per event; on a TTY a
 * task table redrawn in place, fed by the same events plus the tasks' stored state.
 */
import type { StoredEvent, TaskEnding } from '../engine/events.js'
import type { Heartbeat, Task } from '../state/domain.js'
import { clock, duration, firstLine, statusText, style, table } from './output.js'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
const listed = (items: readonly (string | number)[], before: string, after = '') =>
  items.length ? `${before}${items.join(', ')}${after}` : ''

/** One line per event, e.g. `12:00:01 s1-2 DONE agent exited 0, 3 files changed, committed abc123`. */
export function eventLine(event: StoredEvent): string | null {
  const text = describe(event)
  return text === null ? null : `${clock(event.createdAt)} ${text}`
}

/** Every event type of engine/events.ts has its line (the switch is exhaustive: a new type must be described here). */
function describe(event: StoredEvent): string | null {
  const task = event.taskId ?? ''
  switch (event.type) {
    case 'sprint_planned':
      return `planned ${plural(event.data.tasks, 'task')} (${event.data.mode})`
    case 'job_started':
      return `job ${event.data.jobId} started (pid ${event.data.pid})${event.data.resume ? ', resuming' : ''}`
    case 'sprint_resumed':
      return `resuming ${event.data.tasks.join(', ') || 'no tasks'}`
    case 'sprint_started':
      return `sprint started: ${plural(event.data.tasks, 'task')}, up to ${plural(event.data.maxWorkers, 'worker')}`
    case 'task_awaiting_approval':
      return (
        `${task} ${statusText('AWAITING_APPROVAL')}${event.data.summary ? ` ${event.data.summary}` : ''} ` +
        `(quartet approvals decide ${event.data.approvalId} allow|deny)`
      )
    case 'task_approved':
      return `${task} approved (${event.data.approvalId})`
    case 'task_approval_closed':
      return `${task} ${statusText(event.data.status)} ${event.data.reason}`
    case 'task_claimed':
      return null
    case 'task_started':
      return `${task} ${statusText('EXECUTING')} attempt ${event.data.attempt}, agent ${event.data.agent}`
    case 'task_heartbeat':
      return `${task} ${statusText(event.data.status)} ${event.data.currentAction}`
    case 'task_retry':
      return (
        `${task} ${style.yellow('RETRY')} attempt ${event.data.attempt} failed (${firstLine(event.data.reason)}); ` +
        `attempt ${event.data.nextAttempt} in ${duration(event.data.delayMs)}`
      )
    case 'task_done':
      return `${task} ${statusText('DONE')} ${doneSummary(event.data)}`
    case 'task_no_go':
      return `${task} ${statusText('NO_GO')} ${indentTail(event.data.reason)}`
    case 'task_blocked':
      return `${task} ${statusText('BLOCKED')} ${firstLine(event.data.reason)}`
    case 'task_cancelled':
      return `${task} ${statusText('CANCELLED')} ${firstLine(event.data.reason)}`
    case 'task_killed':
      return `${task} ${statusText('CANCELLED')} killed by user${listed(event.data.killedPids, ' (process groups ', ')')}`
    case 'budget_exceeded':
      return `${style.red('budget exceeded')}: ${event.data.reason}`
    case 'job_killed':
      return `job ${event.data.jobId} killed${listed(event.data.cancelledTasks, ': cancelled ')}`
    case 'job_orphaned':
      return `job ${event.data.jobId} ${statusText('ORPHANED')}: ${event.data.reason}` + listed(event.data.tasks, '; left ', ' unfinished')
    case 'sprint_finished':
      return (
        `sprint ${statusText(event.data.status)}${event.data.stopReason ? ` (${event.data.stopReason})` : ''}: ` +
        countsText(event.data.counts)
      )
    case 'cleanup':
      return `cleanup: removed ${event.data.removed}, kept ${event.data.kept}`
    case 'coverage_recorded':
      return `coverage ${event.data.coverage === null ? 'not measured' : `${event.data.coverage} %`} (exit ${event.data.exitCode ?? '-'})`
    case 'merge_started':
      return `merge ${event.data.mergeId} into ${event.data.target}: ${event.data.tasks.length} task(s)`
    case 'merge_task':
      return `merge ${event.data.taskId}: ${event.data.status}${event.data.reason ? ` (${event.data.reason})` : ''}`
    case 'merge_finished':
      return `merge ${event.data.mergeId} ${event.data.status}: ${event.data.merged}/${event.data.total} merged`
    case 'task_xverified':
      return (
        `${task} cross-verify ${event.data.verdict}${event.data.verifier ? ` by ${event.data.verifier}` : ''}: ` +
        firstLine(event.data.reason)
      )
  }
}

function doneSummary(d: TaskEnding): string {
  const parts = [d.exitCode === null || d.exitCode === undefined ? 'finished' : `agent exited ${d.exitCode}`]
  parts.push(`${plural(d.filesChanged ?? 0, 'file')} changed`)
  if (typeof d.commitSha === 'string') parts.push(`committed ${d.commitSha.slice(0, 7)}`)
  return parts.join(', ')
}

/** A failure reason's first line, then (indented) the agent output the executor kept with it. */
function indentTail(reason: string): string {
  const [head, ...tail] = reason.split('\n')
  return [head, ...tail.slice(-5).map((l) => `    | ${l}`)].join('\n')
}

export function countsText(counts: Record<string, number> | undefined): string {
  const entries = Object.entries(counts ?? {}).filter(([, n]) => n > 0)
  return entries.length === 0 ? 'no tasks' : entries.map(([status, n]) => `${n} ${status}`).join(', ')
}

export interface TaskView {
  agent: string | null
  lastAction: string
}

/** The table a TTY shows: one row per task with status, attempt, agent, elapsed time and last action. */
export function taskTable(tasks: Task[], views: Map<string, TaskView>, beats: Heartbeat[], now: Date, width: number): string[] {
  const beatOf = new Map(beats.map((b) => [b.taskId, b]))
  const rows = tasks.map((t) => {
    const view = views.get(t.id)
    const active = ['CLAIMED', 'EXECUTING', 'TESTING'].includes(t.status)
    const started = t.startedAt ? Date.parse(t.startedAt) : null
    const ended = t.finishedAt ? Date.parse(t.finishedAt) : now.getTime()
    const action = active ? (beatOf.get(t.id)?.currentAction ?? view?.lastAction ?? '') : firstLine(t.reason) || view?.lastAction || ''
    return [
      t.id,
      t.status,
      t.attempts > 0 ? String(t.attempts) : '-',
      view?.agent ?? t.agent ?? '-',
      started === null ? '-' : duration(ended - started),
      action
    ]
  })
  const lines = table(['TASK', 'STATUS', 'TRY', 'AGENT', 'ELAPSED', 'LAST ACTION'], rows)
  const statusColumn = lines[0]!.indexOf('STATUS')
  return lines.map((line, i) => {
    const clipped = line.length > width ? `${line.slice(0, Math.max(10, width - 1))}…` : line
    if (i === 0) return style.bold(clipped)
    const status = tasks[i - 1]!.status
    // Colour only the status word; widths were computed on the plain text.
    return clipped.slice(0, statusColumn) + statusText(status) + clipped.slice(statusColumn + status.length)
  })
}

/** Redraws a block of lines in place: cursor up over the previous block, clear to the end, write. */
export function createRedraw(write: (text: string) => void) {
  let previous = 0
  return {
    draw(lines: string[]): void {
      write(`${previous > 0 ? `\x1b[${previous}A\r` : ''}\x1b[0J${lines.join('\n')}\n`)
      previous = lines.length
    },
    /** Writes lines above the table (it is redrawn below them on the next draw). */
    above(lines: string[]): void {
      write(`${previous > 0 ? `\x1b[${previous}A\r` : ''}\x1b[0J${lines.join('\n')}\n`)
      previous = 0
    }
  }
}
