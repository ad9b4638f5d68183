import type { FastifyBaseLogger } from 'fastify'
import { createLogFollower } from '../engine/worker-log.js'
import type { TasksService } from '../modules/tasks/tasks.service.js'
import type { SseConnection } from './sse.js'

/** Lines the first frame carries; older ones are only counted. */
const SNAPSHOT_LINES = 500
/** Lines one output frame carries; a burst beyond it is counted as dropped, so one frame stays small. */
const FRAME_LINES = 1000
const POLL_MS = 500

export interface OutputStreamDeps {
  tasks: Pick<TasksService, 'runState' | 'workerOf'>
  logFile: string
  log: FastifyBaseLogger
}

/**
 * `/api/output-stream`: a snapshot of the task's log, then its new lines as it grows, then
 * `done` once the task is no longer running (or waiting for the job that will run it).
 */
export function streamTaskOutput(connection: SseConnection, taskId: string, deps: OutputStreamDeps): void {
  const follower = createLogFollower(deps.logFile)
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

  function sendOutput(lines: string[], before: number): void {
    dropped += total - before - lines.length
    if (lines.length > 0) connection.send({ event: 'output', data: { taskId, lines, totalReceived: total, droppedLines: dropped } })
  }

  async function tick(): Promise<void> {
    if (connection.closed) return
    try {
      const state = await deps.tasks.runState(taskId)
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
      const workerId = await deps.tasks.workerOf(taskId)
      const lines = await collect(SNAPSHOT_LINES)
      dropped = total - lines.length
      connection.send({
        event: 'snapshot',
        data: { taskId, snapshot: { workerId, taskId, lines, totalLinesReceived: total, droppedLines: dropped } }
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
