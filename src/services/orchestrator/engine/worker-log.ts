/** Worker logs as files: where each task's lives, and reading their tail and new lines. */
import fs from 'node:fs/promises'
import path from 'node:path'
import { StringDecoder } from 'node:string_decoder'

export function taskLogFile(dataDir: string, sprintId: string, taskId: string): string {
  return path.join(dataDir, 'orchestrator', 'logs', sprintId, `${taskId}.log`)
}

/** The most characters of a log (or plan) any read route returns. */
export const TEXT_CAP = 64_000
const CHUNK_BYTES = 256 * 1024

async function openIfExists(file: string): Promise<fs.FileHandle | null> {
  try {
    return await fs.open(file, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** The last `maxChars` characters of a file; null when it does not exist. */
export async function readLogText(file: string, maxChars = TEXT_CAP): Promise<{ text: string; truncated: boolean } | null> {
  const handle = await openIfExists(file)
  if (!handle) return null
  try {
    const { size } = await handle.stat()
    // UTF-8 needs at most 4 bytes per character; read enough for maxChars and cut after decoding.
    const start = Math.max(0, size - maxChars * 4)
    const buffer = Buffer.alloc(size - start)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start)
    const decoded = buffer.subarray(0, bytesRead).toString('utf8')
    const text = decoded.length > maxChars ? decoded.slice(decoded.length - maxChars) : decoded
    return { text, truncated: start > 0 || decoded.length > maxChars }
  } finally {
    await handle.close()
  }
}

/** The last `maxLines` non-empty lines of a file, at most TEXT_CAP characters in all; null when it does not exist. */
export async function readLogTail(file: string, maxLines: number): Promise<{ lines: string[]; truncated: boolean } | null> {
  const read = await readLogText(file)
  if (!read) return null
  const all = read.text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
  // A read that starts inside the file starts inside a line: that first piece is not a whole line.
  if (read.truncated) all.shift()
  const lines = all.filter((line) => line.trim().length > 0)
  const tail = lines.slice(-maxLines)
  return { lines: tail, truncated: read.truncated || lines.length > tail.length }
}

/**
 * Reads a growing log from where the last read stopped, handing out complete lines (CR
 * stripped, empty ones skipped). A truncated or replaced file is read again from its start.
 */
export function createLogFollower(file: string) {
  let inode: number | null = null
  let offset = 0
  let partial = ''
  let decoder = new StringDecoder('utf8')

  function split(text: string, onLine: (line: string) => void): void {
    partial += text
    const lines = partial.split('\n')
    partial = lines.pop() ?? ''
    for (const raw of lines) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
      if (line.trim().length > 0) onLine(line)
    }
  }

  return {
    /** Hands every complete line written since the last call to onLine; false when the file does not exist. */
    async readNew(onLine: (line: string) => void): Promise<boolean> {
      const handle = await openIfExists(file)
      if (!handle) {
        inode = null
        return false
      }
      try {
        const stat = await handle.stat()
        if (inode !== stat.ino || stat.size < offset) {
          inode = stat.ino
          offset = 0
          partial = ''
          decoder = new StringDecoder('utf8')
        }
        while (offset < stat.size) {
          const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, stat.size - offset))
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset)
          if (bytesRead === 0) break
          offset += bytesRead
          split(decoder.write(buffer.subarray(0, bytesRead)), onLine)
        }
        return true
      } finally {
        await handle.close()
      }
    },

    /** The unterminated last line, handed out when the log is known to be complete. */
    flushPartial(onLine: (line: string) => void): void {
      const rest = partial + decoder.end()
      partial = ''
      if (rest.trim().length > 0) onLine(rest.endsWith('\r') ? rest.slice(0, -1) : rest)
    }
  }
}
