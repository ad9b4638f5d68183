import fs from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'

export interface LogTailOptions {
  file: string
  /** Called once per complete, non-empty line (CR stripped), oldest first. */
  onLine(line: string): void
  /** Called once when the file does not exist (yet); tailing goes on and picks it up when it appears. */
  onUnavailable(): void
  onError?: (error: unknown) => void
  pollMs?: number
  /** How much of an existing file is sent on connect; older lines are skipped. */
  backfillBytes?: number
}

const READ_CHUNK = 256 * 1024

/**
 * Follows a worker log: backfill, then new complete lines as they are written. Polling (not
 * fs.watch) because it behaves the same on every platform and file system, and a truncated or
 * replaced file (new inode) is read again from its start.
 */
export function tailLogFile(options: LogTailOptions): { close(): void } {
  const pollMs = options.pollMs ?? 200
  const backfillBytes = options.backfillBytes ?? 256 * 1024
  let closed = false
  let timer: NodeJS.Timeout | undefined
  let reportedMissing = false
  let inode: number | null = null
  let offset = 0
  let partial = ''
  let skipFirstLine = false
  let decoder = new StringDecoder('utf8')

  function emit(text: string): void {
    partial += text
    const lines = partial.split('\n')
    partial = lines.pop() ?? ''
    for (const raw of lines) {
      if (skipFirstLine) {
        skipFirstLine = false
        continue
      }
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
      if (line.trim().length > 0 && !closed) options.onLine(line)
    }
  }

  async function readNew(): Promise<void> {
    let stat
    try {
      stat = await fs.stat(options.file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      if (!reportedMissing) {
        reportedMissing = true
        options.onUnavailable()
      }
      inode = null
      return
    }
    if (inode !== stat.ino || stat.size < offset) {
      // First sight, truncation or replacement: start over, with at most backfillBytes of history.
      const firstSight = inode === null && !reportedMissing
      inode = stat.ino
      offset = firstSight && stat.size > backfillBytes ? stat.size - backfillBytes : 0
      skipFirstLine = offset > 0
      partial = ''
      decoder = new StringDecoder('utf8')
    }
    if (stat.size <= offset) return
    const handle = await fs.open(options.file, 'r')
    try {
      while (offset < stat.size && !closed) {
        const buffer = Buffer.alloc(Math.min(READ_CHUNK, stat.size - offset))
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset)
        if (bytesRead === 0) break
        offset += bytesRead
        emit(decoder.write(buffer.subarray(0, bytesRead)))
      }
    } finally {
      await handle.close()
    }
  }

  async function tick(): Promise<void> {
    try {
      await readNew()
    } catch (error) {
      options.onError?.(error)
    }
    if (!closed) timer = setTimeout(() => void tick(), pollMs)
  }

  void tick()
  return {
    close() {
      closed = true
      if (timer) clearTimeout(timer)
    }
  }
}
