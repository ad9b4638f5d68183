/**
 * Following a run from the terminal: the event log is read from the database (so it works
 * whether or not a server runs), and the job is reconciled against its process every second,
 * so a job that dies is reported as orphaned instead of being waited on for ever.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { StoredEvent } from '../engine/events.js'
import type { Job } from '../state/domain.js'
import type { ProjectContext } from './context.js'
import { createRedraw, eventLine, taskTable, type TaskView } from './progress.js'
import { style } from './output.js'

export interface FollowOptions {
  jobId: number
  sprintId: string
  /** Events after this sequence number are shown. */
  afterSeq: number
  /** Redraw a task table in place (a TTY) instead of printing one line per event. */
  tty: boolean
  pollMs?: number
  write?: (text: string) => void
}

export type FollowEnd = { kind: 'ended'; job: Job } | { kind: 'interrupted' }

const BATCH = 500
const RECONCILE_MS = 1000
// In the table view these still get a line of their own above the table: they are the history.
const TABLE_HISTORY = new Set([
  'task_done',
  'task_no_go',
  'task_blocked',
  'task_cancelled',
  'task_killed',
  'task_retry',
  'job_orphaned',
  'job_killed',
  'budget_exceeded',
  'sprint_finished',
  'sprint_resumed'
])

export async function followJob(context: ProjectContext, options: FollowOptions): Promise<FollowEnd> {
  const { status, tasks: taskReads, runControl } = context.orchestrator
  const { projectId } = context
  const write =
    options.write ??
    ((text: string) => {
      process.stdout.write(text)
    })
  const redraw = createRedraw(write)
  const views = new Map<string, TaskView>()
  const stop = new AbortController()
  const onInterrupt = () => stop.abort()
  process.on('SIGINT', onInterrupt)
  let seq = options.afterSeq
  let lastReconcile = 0

  function show(events: StoredEvent[]): void {
    const lines: string[] = []
    for (const event of events) {
      seq = event.seq
      track(views, event)
      if (options.tty && !TABLE_HISTORY.has(event.type)) continue
      const line = eventLine(event)
      if (line !== null) lines.push(line)
    }
    if (lines.length === 0) return
    if (options.tty) redraw.above(lines)
    else write(`${lines.join('\n')}\n`)
  }

  async function drawTable(): Promise<void> {
    if (!options.tty) return
    const [tasks, beats] = await Promise.all([taskReads.tasksOf(options.sprintId), taskReads.heartbeatsOf(options.sprintId)])
    const counts = tasks.reduce<Record<string, number>>((c, t) => ({ ...c, [t.status]: (c[t.status] ?? 0) + 1 }), {})
    const footer = style.dim(`${counts.DONE ?? 0}/${tasks.length} done · Ctrl-C stops following (the run goes on)`)
    redraw.draw([...taskTable(tasks, views, beats, context.clock(), process.stdout.columns || 120), footer])
  }

  try {
    for (;;) {
      const events = await status.eventsAfter(seq, BATCH, { sprintId: options.sprintId })
      show(events)
      if (stop.signal.aborted) return { kind: 'interrupted' }
      if (events.length === BATCH) continue
      if (Date.now() - lastReconcile >= RECONCILE_MS) {
        lastReconcile = Date.now()
        await runControl.reconcile(projectId)
      }
      const job = await status.findJob(options.jobId)
      if (!job || !job.active) {
        // What the job (or the reconcile that ended it) wrote last.
        for (
          let more = await status.eventsAfter(seq, BATCH, { sprintId: options.sprintId });
          more.length > 0;
          more = await status.eventsAfter(seq, BATCH, { sprintId: options.sprintId })
        )
          show(more)
        await drawTable()
        if (!job) throw new Error(`job ${options.jobId} disappeared from the database`)
        return { kind: 'ended', job }
      }
      await drawTable()
      await sleep(options.pollMs ?? 300, undefined, { signal: stop.signal }).catch(() => undefined)
    }
  } finally {
    process.off('SIGINT', onInterrupt)
  }
}

function track(views: Map<string, TaskView>, event: StoredEvent): void {
  if (!event.taskId) return
  const view = views.get(event.taskId) ?? { agent: null, lastAction: '' }
  if (event.type === 'task_started') {
    view.agent = event.data.agent
    view.lastAction = `attempt ${event.data.attempt} started`
  } else if (event.type === 'task_heartbeat') {
    view.lastAction = event.data.currentAction
  } else if (event.type === 'task_retry') {
    view.lastAction = `retrying (attempt ${event.data.nextAttempt})`
  } else if (event.type === 'task_awaiting_approval') {
    view.lastAction = `waiting for approval ${event.data.approvalId}${event.data.summary ? `: ${event.data.summary}` : ''}`
  } else if (event.type === 'task_approval_closed') {
    view.lastAction = event.data.reason
  }
  views.set(event.taskId, view)
}
