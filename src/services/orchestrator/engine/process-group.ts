/**
 * Runs one agent or check process: its own process group (so a kill reaches every descendant),
 * no stdin (an agent can never sit waiting for input), argv only (never a shell string), output
 * appended to the task's log up to a cap, and a bounded tail kept in memory for the outcome.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { killProcessTree, PROCESS_MARK_VAR } from './process-tree.js'
import type { EnginePlatform, RecordedProcess } from './types.js'

export interface RunProcessOptions {
  command: string
  args: readonly string[]
  cwd: string
  env?: NodeJS.ProcessEnv
  logFile: string
  /** The log file is not grown past this size by this process's output; one marker line says so. */
  logCapBytes: number
  timeoutMs: number
  killGraceMs: number
  signal?: AbortSignal
  onStart?(pid: number): void
  onLine?(line: string): void
}

export interface RunProcessResult {
  exitCode: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  aborted: boolean
  durationMs: number
  tail: string[]
  bytesLogged: number
  bytesDropped: number
  /** Set when the process could not be started at all (command not found, bad cwd …). */
  spawnError?: string
}

const TAIL_LINES = 200
const TAIL_LINE_CHARS = 2000
/** A "line" longer than this is handed on in pieces, so one endless line cannot exhaust memory. */
const MAX_LINE_CHARS = 4 * 1024 * 1024
const POLL_MS = 25
const START_SLACK_MS = 5000

/** true while the process exists and is not a zombie. */
export function isProcessAlive(pid: number): boolean {
  const state = procState(pid)
  if (state !== undefined) return state !== 'Z' && state !== 'X'
  return signalZero(pid)
}

/** true while any live (non-zombie) process belongs to the group. */
export function isProcessGroupAlive(pgid: number): boolean {
  if (!signalZero(-pgid)) return false
  // Zombies still answer signal 0; where the init process does not reap them they would
  // keep a dead group "alive" forever, so /proc decides when it is there.
  const members = groupMembersFromProc(pgid)
  return members === undefined ? true : members.length > 0
}

/** SIGTERM to the whole group, SIGKILL after graceMs; resolves once no member is left (false when there was no group to signal). */
export async function killProcessGroup(pgid: number, graceMs: number): Promise<boolean> {
  if (!sendToGroup(pgid, 'SIGTERM')) return false
  const deadline = Date.now() + graceMs
  while (Date.now() < deadline) {
    if (!isProcessGroupAlive(pgid)) return true
    await sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now())))
  }
  if (!sendToGroup(pgid, 'SIGKILL')) return true
  // SIGKILL cannot be caught; the wait is only for the kernel to finish tearing down.
  const hardDeadline = Date.now() + 5000
  while (isProcessGroupAlive(pgid) && Date.now() < hardDeadline) await sleep(POLL_MS)
  return true
}

/** When the process started, in clock ticks since boot (field 22 of /proc/<pid>/stat); null when it is gone or there is no /proc. */
export function processStartTicks(pid: number): number | null {
  const ticks = readStat(pid)?.startTicks
  return ticks !== undefined && Number.isFinite(ticks) ? ticks : null
}

const hasProc = () => fs.existsSync('/proc/self/stat')

/**
 * true when a recorded process group is still the one that was recorded: its leader runs and
 * started at the recorded tick, so a pid reused after the agent died or after a reboot is never
 * taken for it. A leader that is gone leaves the group unproven, so it is not ours to kill.
 * Without /proc, or for a record without a start time (written before start times were
 * recorded), there is nothing to compare: a live group is taken as ours, as it always was.
 */
export function isRecordedGroup(recorded: RecordedProcess): boolean {
  if (!isProcessGroupAlive(recorded.pid)) return false
  if (recorded.startTicks === null || !hasProc()) return true
  return processStartTicks(recorded.pid) === recorded.startTicks
}

/**
 * false when the live process `pid` provably started after `notAfter` (ms since the epoch), i.e.
 * is not the process that wrote that time (a reused pid). Wall time = boot time + start ticks /
 * USER_HZ, which Linux fixes at 100 for user space; without /proc nothing can be proven: true.
 */
export function startedBy(pid: number, notAfter: number): boolean {
  const ticks = processStartTicks(pid)
  const boot = bootTimeMs()
  if (ticks === null || boot === null) return true
  // /proc/stat gives the boot time in whole seconds; the slack also covers small clock adjustments.
  return boot + ticks * 10 <= notAfter + START_SLACK_MS
}

export function runProcess(options: RunProcessOptions, platform: Pick<EnginePlatform, 'spawn'>): Promise<RunProcessResult> {
  const started = Date.now()
  const log = openCappedLog(options.logFile, options.logCapBytes)
  const tail: string[] = []
  const pushTail = (line: string) => {
    tail.push(line.length > TAIL_LINE_CHARS ? `${line.slice(0, TAIL_LINE_CHARS)}…` : line)
    if (tail.length > TAIL_LINES) tail.shift()
  }
  const emitLine = (line: string) => {
    pushTail(line)
    options.onLine?.(line)
  }
  const result = (fields: Partial<RunProcessResult>): RunProcessResult => ({
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: Date.now() - started,
    tail,
    bytesLogged: log.bytesLogged,
    bytesDropped: log.bytesDropped,
    ...fields
  })

  if (options.signal?.aborted) {
    log.close()
    return Promise.resolve(result({ aborted: true }))
  }

  return new Promise((resolve) => {
    let child
    // Every descendant inherits the mark, so the kill below finds those that left the group (setsid) too.
    const mark = `${PROCESS_MARK_VAR}=${randomBytes(9).toString('base64url')}`
    try {
      child = platform.spawn(options.command, options.args, {
        cwd: options.cwd,
        env: { ...(options.env ?? process.env), [PROCESS_MARK_VAR]: mark.slice(PROCESS_MARK_VAR.length + 1) },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: false
      })
    } catch (error) {
      log.close()
      resolve(result({ spawnError: (error as Error).message }))
      return
    }
    const pid = child.pid
    let timedOut = false
    let aborted = false
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    let groupGone: Promise<unknown> | undefined
    let settled = false
    let markClosed = () => {}
    const closed = new Promise<void>((resolveClosed) => {
      markClosed = resolveClosed
    })
    child.once('close', () => markClosed())

    const readers = [child.stdout, child.stderr].map((stream) => {
      const reader = lineReader(emitLine)
      stream?.on('data', (chunk: Buffer) => {
        log.write(chunk)
        reader.push(chunk)
      })
      return reader
    })

    const killGroup = () => {
      if (pid !== undefined) groupGone ??= killProcessTree({ pgids: [pid], marks: [[mark]] }, options.killGraceMs)
      return groupGone ?? Promise.resolve()
    }
    const timer = setTimeout(() => {
      timedOut = true
      void killGroup()
    }, options.timeoutMs)
    const onAbort = () => {
      aborted = true
      void killGroup()
    }
    options.signal?.addEventListener('abort', onAbort, { once: true })

    const finish = (spawnError?: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      for (const reader of readers) reader.end()
      log.close()
      resolve(
        result({ exitCode: exit?.code ?? null, signal: exit?.signal ?? null, timedOut, aborted, ...(spawnError ? { spawnError } : {}) })
      )
    }

    child.on('error', (error) => {
      // Spawn failures (ENOENT …) emit 'error' and no 'exit'.
      if (exit === undefined && pid === undefined) finish(error.message)
    })
    child.on('exit', (code, signal) => {
      exit = { code, signal }
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      // Descendants left behind by the agent are part of its run: they go with it, so no
      // ghost process outlives the attempt (and nothing keeps the output pipes open).
      void killGroup().then(async () => {
        // A process that left the group (setsid) may still hold the pipes: stop reading them.
        const stopReading = setTimeout(() => {
          child.stdout?.destroy()
          child.stderr?.destroy()
          markClosed()
        }, 1000)
        await closed
        clearTimeout(stopReading)
        finish()
      })
    })
    if (pid !== undefined) options.onStart?.(pid)
  })
}

function lineReader(onLine: (line: string) => void) {
  const decoder = new StringDecoder('utf8')
  let partial = ''
  const take = (text: string) => {
    partial += text
    let newline = partial.indexOf('\n')
    while (newline !== -1) {
      onLine(partial.slice(0, newline).replace(/\r$/, ''))
      partial = partial.slice(newline + 1)
      newline = partial.indexOf('\n')
    }
    if (partial.length > MAX_LINE_CHARS) {
      onLine(partial)
      partial = ''
    }
  }
  return {
    push: (chunk: Buffer) => take(decoder.write(chunk)),
    end: () => {
      take(decoder.end())
      if (partial.length > 0) onLine(partial)
      partial = ''
    }
  }
}

/**
 * Appends one process's output to the log, at most capBytes of it: the first 25 % as it comes,
 * and once the output passes the cap, the last 75 % held back and written at close after one
 * marker line saying how much was cut there. The end of a long output (where the error usually
 * is) is kept; each process has its own budget, so a check's output is kept after a chatty agent.
 */
export function openCappedLog(logFile: string, capBytes: number) {
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  const fd = fs.openSync(logFile, 'a+')
  const start = fs.fstatSync(fd).size
  const headBytes = Math.floor(capBytes / 4)
  const tailBytes = capBytes - headBytes
  let written = 0
  let overflowing = false
  const held: Buffer[] = []
  let heldBytes = 0
  let cut = 0
  const hold = (chunk: Buffer) => {
    held.push(chunk)
    heldBytes += chunk.length
    while (heldBytes > tailBytes) {
      const first = held[0]!
      const excess = heldBytes - tailBytes
      if (first.length <= excess) {
        held.shift()
        heldBytes -= first.length
        cut += first.length
      } else {
        held[0] = first.subarray(excess)
        heldBytes -= excess
        cut += excess
      }
    }
  }
  const state = {
    bytesLogged: 0,
    bytesDropped: 0,
    write(chunk: Buffer) {
      if (!overflowing && written + chunk.length <= capBytes) {
        fs.writeSync(fd, chunk)
        written += chunk.length
        state.bytesLogged += chunk.length
        return
      }
      if (!overflowing) {
        overflowing = true
        // What was written past the head becomes the start of the held tail.
        if (written > headBytes) {
          const middle = Buffer.alloc(written - headBytes)
          fs.readSync(fd, middle, 0, middle.length, start + headBytes)
          fs.ftruncateSync(fd, start + headBytes)
          written = headBytes
          hold(middle)
        }
      }
      hold(Buffer.from(chunk))
      state.bytesDropped = cut
      state.bytesLogged = written + heldBytes
    },
    close() {
      if (overflowing) {
        fs.writeSync(fd, `\n[quartet] log cut: ${cut} bytes dropped here (log_cap_bytes ${capBytes}: first 25 % and last 75 % kept)\n`)
        for (const chunk of held) fs.writeSync(fd, chunk)
        state.bytesDropped = cut
        state.bytesLogged = written + heldBytes
      }
      fs.closeSync(fd)
    }
  }
  return state
}

function sendToGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
}

/** true while `pid` exists (a zombie too): kill(pid, 0), about a microsecond. */
export function signalZero(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The state letter from /proc/<pid>/stat (R, S, T stopped, Z zombie …), or undefined where /proc is unavailable or the pid is gone. */
export function procState(pid: number): string | undefined {
  const stat = readStat(pid)
  return stat?.state
}

function readStat(pid: number): { state: string; pgrp: number; startTicks: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name is in parentheses and may itself contain spaces or parentheses;
    // fields[0] is field 3 (state), so field 5 (pgrp) is fields[2] and field 22 (starttime) fields[19].
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0] ?? '', pgrp: Number(fields[2]), startTicks: Number(fields[19]) }
  } catch {
    return undefined
  }
}

function bootTimeMs(): number | null {
  try {
    const line = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))
    return line ? Number(line[1]) * 1000 : null
  } catch {
    return null
  }
}

function groupMembersFromProc(pgid: number): number[] | undefined {
  let entries: string[]
  try {
    entries = fs.readdirSync('/proc')
  } catch {
    return undefined
  }
  const members: number[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(Number(entry))
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') members.push(Number(entry))
  }
  return members
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
