import fs from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { taskLogFile } from '../engine/worker-log.js'
import type { ProjectContext } from './context.js'
import { findTask, withProject } from './context.js'
import { EXIT_FAILED, EXIT_OK, err } from './output.js'

const POLL_MS = 250
const RECONCILE_MS = 1000

/** `quartet logs <task> [-f]`: the worker log; -f prints new output until the task is no longer active (or Ctrl-C). */
export function logsCommand(runtime: CliRuntime, taskRef: string, options: ProjectOptions & { follow?: boolean }): Promise<number> {
  return withProject(runtime, options, async (context) => {
    const task = await findTask(context, taskRef)
    const file = taskLogFile(context.dataDir, task.sprintId, task.id)
    if (!options.follow) {
      if (!fs.existsSync(file)) {
        err(`No log for ${task.id} yet (it is ${task.status}${task.status === 'PENDING' ? ': it has not started' : ''}).`)
        return EXIT_FAILED
      }
      await copyNew(file, 0)
      return EXIT_OK
    }
    await follow(context, task.id, file)
    return EXIT_OK
  })
}

/** Copies new bytes of the log as they arrive; the file may appear only when the task starts. */
async function follow(context: ProjectContext, taskId: string, file: string): Promise<void> {
  const stop = new AbortController()
  const onInterrupt = () => stop.abort()
  process.on('SIGINT', onInterrupt)
  let offset = 0
  let lastReconcile = 0
  try {
    for (;;) {
      offset = await copyNew(file, offset)
      if (stop.signal.aborted) return
      if (Date.now() - lastReconcile >= RECONCILE_MS) {
        lastReconcile = Date.now()
        // Reconciled first: a dead job's tasks become ORPHANED, which ends the follow instead of waiting for ever.
        if (!(await context.orchestrator.tasks.runState(taskId)).running) {
          await copyNew(file, offset)
          return
        }
      }
      await sleep(POLL_MS, undefined, { signal: stop.signal }).catch(() => undefined)
    }
  } finally {
    process.off('SIGINT', onInterrupt)
  }
}

/**
 * Copies the bytes from offset to the end to stdout, each chunk flushed before the next is read:
 * on a pipe, stdout takes what fits (64 KiB) and queues the rest, so the command must not reuse
 * the buffer or exit before the queue is written.
 */
async function copyNew(file: string, offset: number): Promise<number> {
  let fd: number
  try {
    fd = fs.openSync(file, 'r')
  } catch {
    return offset
  }
  try {
    const size = fs.fstatSync(fd).size
    // Truncated or replaced: start over.
    let position = size < offset ? 0 : offset
    const buffer = Buffer.alloc(64 * 1024)
    while (position < size) {
      const read = fs.readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position)
      if (read === 0) break
      await writeOut(Buffer.from(buffer.subarray(0, read)))
      position += read
    }
    return position
  } finally {
    fs.closeSync(fd)
  }
}

function writeOut(chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(chunk, (error) => (error ? reject(error) : resolve()))
  })
}
