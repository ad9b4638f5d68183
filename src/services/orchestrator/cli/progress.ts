/**
 * How a followed run is shown: in a pipe or a log file one plain line per event; on a TTY a
 * task table redrawn in place, fed by the same events plus the tasks' stored state.
 */
import type { StoredEvent } from '../state/events.repository.js'
import type { HeartbeatRow, TaskRow } from '../state/db.js'
import { clock, duration, firstLine, statusText, style, table } from './output.js'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** One line per event, e.g. `12:00:01 s1-2 DONE agent exited 0, 3 files changed, committed abc123`. */
export function eventLine(event: StoredEvent): string | null {
  const d = event.data as Record<string, any>
  const task = event.taskId ?? ''
  const text = describe(event.type, d, task)
  return text === null ? null : `${clock(event.createdAt)} ${text}`
}

function describe(type: string, d: Record<string, any>, task: string): string | null {
  switch (type) {
    case 'sprint_planned':
      return `planned ${plural(Number(d.tasks ?? 0), 'task')} (${String(d.mode)})`
    case 'job_started':
      return `job ${String(d.jobId)} started (pid ${String(d.pid)})${d.resume ? ', resuming' : ''}`
    case 'sprint_resumed':
      return `resuming ${(d.tasks as string[] | undefined)?.join(', ') || 'no tasks'}`
    case 'sprint_started':
      return `sprint started: ${plural(Number(d.tasks ?? 0), 'task')}, up to ${plural(Number(d.maxWorkers ?? 1), 'worker')}`
    case 'task_claimed':
      return null
    case 'task_started':
      return `${task} ${statusText('EXECUTING')} attempt ${String(d.attempt)}, agent ${String(d.agent)}`
    case 'task_heartbeat':
      return `${task} ${statusText(String(d.status))} ${String(d.currentAction ?? '')}`
    case 'task_retry':
      return (
        `${task} ${style.yellow('RETRY')} attempt ${String(d.attempt)} failed (${firstLine(d.reason)}); ` +
        `attempt ${String(d.nextAttempt)} in ${duration(Number(d.delayMs))}`
      )
    case 'task_done':
      return `${task} ${statusText('DONE')} ${doneSummary(d)}`
    case 'task_no_go':
      return `${task} ${statusText('NO_GO')} ${indentTail(String(d.reason ?? ''))}`
    case 'task_blocked':
      return `${task} ${statusText('BLOCKED')} ${firstLine(d.reason)}`
    case 'task_cancelled':
      return `${task} ${statusText('CANCELLED')} ${firstLine(d.reason)}`
    case 'task_killed':
      return (
        `${task} ${statusText('CANCELLED')} killed by user` +
        `${(d.killedPids as number[] | undefined)?.length ? ` (process groups ${(d.killedPids as number[]).join(', ')})` : ''}`
      )
    case 'budget_exceeded':
      return `${style.red('budget exceeded')}: ${String(d.reason)}`
    case 'job_killed':
      return (
        `job ${String(d.jobId)} killed` +
        `${(d.cancelledTasks as string[] | undefined)?.length ? `: cancelled ${(d.cancelledTasks as string[]).join(', ')}` : ''}`
      )
    case 'job_orphaned':
      return (
        `job ${String(d.jobId)} ${statusText('ORPHANED')}: ${String(d.reason)}` +
        `${(d.tasks as string[] | undefined)?.length ? `; left ${(d.tasks as string[]).join(', ')} unfinished` : ''}`
      )
    case 'sprint_finished':
      return (
        `sprint ${statusText(String(d.status))}${d.stopReason ? ` (${String(d.stopReason)})` : ''}: ` +
        `${countsText(d.counts as Record<string, number> | undefined)}`
      )
    case 'cleanup':
      return `cleanup: removed ${String(d.removed)}, kept ${String(d.kept)}`
    default:
      return `${task ? `${task} ` : ''}${type}`
  }
}

function doneSummary(d: Record<string, any>): string {
  const parts = [d.exitCode === null || d.exitCode === undefined ? 'finished' : `agent exited ${String(d.exitCode)}`]
  parts.push(`${plural(Number(d.filesChanged ?? 0), 'file')} changed`)
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
export function taskTable(tasks: TaskRow[], views: Map<string, TaskView>, beats: HeartbeatRow[], now: Date, width: number): string[] {
  const beatOf = new Map(beats.map((b) => [b.task_id, b]))
  const rows = tasks.map((t) => {
    const view = views.get(t.id)
    const active = ['CLAIMED', 'EXECUTING', 'TESTING'].includes(t.status)
    const started = t.started_at ? Date.parse(t.started_at) : null
    const ended = t.finished_at ? Date.parse(t.finished_at) : now.getTime()
    const action = active ? (beatOf.get(t.id)?.current_action ?? view?.lastAction ?? '') : firstLine(t.reason) || view?.lastAction || ''
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
