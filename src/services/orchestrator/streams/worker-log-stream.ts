/**
 * The worker log as an event stream that a slow or reconnecting reader can trust: every
 * `log_line` carries `id: <byte offset after the line>`, so a reconnect with Last-Event-ID goes on
 * exactly after the last line seen. The file is read only while the socket drains (the log is on
 * disk: a slow reader just lags, nothing is queued for it and it is never disconnected); a reader
 * that falls more than maxLagBytes behind gets one `log_gap` frame with the bytes skipped instead.
 * When the task is no longer running and everything is sent, `log_end` carries its final status.
 */
import fs from 'node:fs/promises'
import type { SseConnection } from './sse.js'

export interface WorkerLogPumpOptions {
  connection: SseConnection
  taskId: string
  /** The log file, or null when there is no such task (then only `log_unavailable` is sent). */
  file: string | null
  /** Where to go on (Last-Event-ID), or null for the recent history (backfillBytes). */
  resumeAt: number | null
  /** The task's state: the stream ends once it is no longer running. */
  runState: () => Promise<{ running: boolean; status: string }>
  now: () => string
  onError(error: unknown): void
  pollMs?: number
  backfillBytes?: number
  maxLagBytes?: number
}

const READ_CHUNK = 64 * 1024
const STATE_EVERY_MS = 1000

export function pumpWorkerLog(options: WorkerLogPumpOptions): void {
  const { connection, taskId } = options
  const pollMs = options.pollMs ?? 200
  const backfillBytes = options.backfillBytes ?? 256 * 1024
  const maxLagBytes = options.maxLagBytes ?? 4 * 1024 * 1024
  let offset: number | null = options.resumeAt
  let reportedMissing = false
  let lastStateAt = 0

  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref())
  const drained = () => new Promise<void>((resolve) => connection.onDrain(resolve))
  const send = (id: number, event: string, data: Record<string, unknown>) =>
    connection.send({ id, event, data: { type: event, taskId, ...data, ts: options.now() } })

  /** The offset just after the first newline at or after `from` (or `from` at the end of the file). */
  async function lineStart(handle: fs.FileHandle, from: number, size: number): Promise<number> {
    if (from === 0) return 0
    let position = from - 1
    const buffer = Buffer.alloc(READ_CHUNK)
    while (position < size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position)
      if (bytesRead === 0) break
      const newline = buffer.subarray(0, bytesRead).indexOf(0x0a)
      if (newline !== -1) return position + newline + 1
      position += bytesRead
    }
    return size
  }

  /** Sends complete lines from offset while the socket drains; answers true at the end of the file. */
  async function sendAvailable(handle: fs.FileHandle, size: number, final: boolean): Promise<boolean> {
    const buffer = Buffer.alloc(READ_CHUNK)
    while (offset! < size && !connection.closed) {
      if (connection.blocked) return false
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - offset!), offset!)
      if (bytesRead === 0) break
      const chunk = buffer.subarray(0, bytesRead)
      let end = chunk.lastIndexOf(0x0a) + 1
      // One line longer than a chunk, or the unterminated last line of a finished log, goes as it is.
      if (end === 0) {
        if (bytesRead < READ_CHUNK && !final) return true
        end = bytesRead
      }
      let start = 0
      while (start < end) {
        const newline = chunk.indexOf(0x0a, start)
        const stop = newline === -1 || newline >= end ? end : newline + 1
        const text = chunk
          .subarray(start, newline === -1 || newline >= end ? end : newline)
          .toString('utf8')
          .replace(/\r$/, '')
        const at = offset! + stop
        start = stop
        if (text.trim() === '') continue
        send(at, 'log_line', { line: text })
        if (connection.blocked) {
          offset = at
          return false
        }
      }
      offset! += end
    }
    return offset! >= size
  }

  async function step(): Promise<'again' | 'wait' | 'done'> {
    if (options.file === null) {
      if (!reportedMissing) send(0, 'log_unavailable', { reason: 'no such task' })
      reportedMissing = true
      return 'wait'
    }
    let handle: fs.FileHandle
    try {
      handle = await fs.open(options.file, 'r')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      if (!reportedMissing) send(0, 'log_unavailable', { reason: 'the task has written no log yet' })
      reportedMissing = true
      return (await ended()) ? finish(null) : 'wait'
    }
    try {
      const { size } = await handle.stat()
      // A resume point past the end belongs to a replaced log: start it over.
      if (offset === null || offset > size)
        offset = offset === null && size > backfillBytes ? await lineStart(handle, size - backfillBytes, size) : 0
      if (size - offset > maxLagBytes) {
        const next = await lineStart(handle, size - backfillBytes, size)
        send(next, 'log_gap', { skippedBytes: next - offset, from: offset, to: next })
        offset = next
      }
      const wasRunning = !(await ended())
      const atEnd = await sendAvailable(handle, size, !wasRunning)
      if (!atEnd) return connection.blocked ? 'again' : 'wait'
      if (wasRunning) return 'wait'
      // Written after the stat: read once more before the end is declared.
      if ((await handle.stat()).size > size) return 'again'
      return finish(lastStatus)
    } finally {
      await handle.close()
    }
  }

  let lastStatus: string | null = null
  async function ended(): Promise<boolean> {
    if (Date.now() - lastStateAt < STATE_EVERY_MS && lastStatus === null) return false
    lastStateAt = Date.now()
    const state = await options.runState()
    if (state.running || state.status === 'PENDING') {
      lastStatus = null
      return false
    }
    lastStatus = state.status
    return true
  }

  function finish(status: string | null): 'done' {
    send(offset ?? 0, 'log_end', { status: status ?? lastStatus })
    connection.close()
    return 'done'
  }

  void (async () => {
    while (!connection.closed) {
      let next: 'again' | 'wait' | 'done'
      try {
        next = await step()
      } catch (error) {
        options.onError(error)
        next = 'wait'
      }
      if (next === 'done') return
      if (connection.blocked) await drained()
      else if (next === 'wait') await sleep(pollMs)
    }
  })()
}
