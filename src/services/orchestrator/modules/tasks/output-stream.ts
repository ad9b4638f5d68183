import type { FastifyBaseLogger } from 'fastify'
import type { RunControl } from '../../engine/reconcile.js'
import type { TaskRow } from '../../state/db.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import type { SseConnection } from '../../streams/sse.js'
import { createLogFollower } from './log-file.js'
import { isActiveTask } from './task-view.js'

/** Lines the first frame carries; older ones are only counted. */
const SNAPSHOT_LINES = 500
/** Lines one output frame carries; a burst beyond it is counted as dropped, so one frame stays small. */
const FRAME_LINES = 1000
const POLL_MS = 500

export interface OutputStreamDeps {
  projectId: number
  repositories: OrchestratorRepositories
  runControl: RunControl
  logFile: string
  log: FastifyBaseLogger
}

/**
 * `/api/output-stream`: a snapshot of the task's log, then its new lines as it grows, then
 * `done` once the task is no longer running (or waiting for the job that will run it).
 */
export function streamTaskOutput(connection: SseConnection, task: TaskRow, deps: OutputStreamDeps): void {
  const repos = deps.repositories
  const follower = createLogFollower(deps.logFile)
  const taskId = task.id
  let total = 0
  let dropped = 0
  let timer: NodeJS.Timeout | undefined
  connection.onClose(() => clearTimeout(timer))

  async function collect(keep: number, finalRead = false): Promise<string[]> {
    let lines: string[] = []
    const take = (line: string) => {
      total++
      lines.push(line)
      if (lines.length >= keep * 2) lines = lines.slice(-keep)
    }
    await follower.readNew(take)
    if (finalRead) follower.flushPartial(take)
    if (lines.length > keep) lines = lines.slice(-keep)
    return lines
  }

  /** True while the task runs, or waits for a live job of its sprint to start it. */
  async function stillRunning(): Promise<{ running: boolean; status: string }> {
    await deps.runControl.reconcile(deps.projectId)
    const current = await repos.tasks.get(taskId)
    if (!current) return { running: false, status: 'DELETED' }
    if (isActiveTask(current.status)) return { running: true, status: current.status }
    if (current.status !== 'PENDING') return { running: false, status: current.status }
    const job = await repos.jobs.active(deps.projectId)
    return { running: job?.sprint_id === current.sprint_id, status: current.status }
  }

  function sendOutput(lines: string[], before: number): void {
    dropped += total - before - lines.length
    if (lines.length > 0) connection.send({ event: 'output', data: { taskId, lines, totalReceived: total, droppedLines: dropped } })
  }

  async function tick(): Promise<void> {
    if (connection.closed) return
    try {
      const state = await stillRunning()
      const before = total
      sendOutput(await collect(FRAME_LINES, !state.running), before)
      if (!state.running) {
        connection.send({ event: 'done', data: { taskId, reason: `task ${state.status}` } })
        connection.close()
        return
      }
    } catch (error) {
      deps.log.warn({ err: error, taskId }, 'output stream failed')
      connection.send({ event: 'error', data: { message: 'reading the task output failed' } })
      connection.close()
      return
    }
    if (!connection.closed) timer = setTimeout(() => void tick(), POLL_MS)
  }

  async function start(): Promise<void> {
    try {
      const hb = await repos.heartbeats.get(taskId)
      const lines = await collect(SNAPSHOT_LINES)
      dropped = total - lines.length
      connection.send({
        event: 'snapshot',
        data: { taskId, snapshot: { workerId: hb?.worker_id ?? null, taskId, lines, totalLinesReceived: total, droppedLines: dropped } }
      })
    } catch (error) {
      deps.log.warn({ err: error, taskId }, 'output stream snapshot failed')
      connection.send({ event: 'error', data: { message: 'reading the task output failed' } })
      connection.close()
      return
    }
    await tick()
  }

  void start()
}
