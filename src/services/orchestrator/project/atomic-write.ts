/** Writes that a crash or a concurrent reader never sees half done: temp file in the same directory, fsync, rename. */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

function tempPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`)
}

function writeSynced(file: string, content: string, mode: number): void {
  const fd = fs.openSync(file, 'wx', mode)
  try {
    // open() applies the umask; the mode must be exact (the file may hold api_auth_token).
    fs.fchmodSync(fd, mode)
    fs.writeFileSync(fd, content)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

function syncDir(dir: string): void {
  // Makes the rename itself durable; some filesystems refuse to fsync a directory, which is harmless.
  try {
    const fd = fs.openSync(dir, 'r')
    try {
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
  } catch {
    // Best effort.
  }
}

/** Replaces `file` (mode applied to the new file) in one step. */
export function writeFileAtomic(file: string, content: string, mode = 0o600): void {
  const temp = tempPath(file)
  try {
    writeSynced(temp, content, mode)
    fs.renameSync(temp, file)
  } catch (error) {
    fs.rmSync(temp, { force: true })
    throw error
  }
  syncDir(path.dirname(file))
}

/** Creates `file` only if it does not exist (hard link fails on an existing name); false when it existed. */
export function createFileExclusive(file: string, content: string, mode = 0o600): boolean {
  const temp = tempPath(file)
  try {
    writeSynced(temp, content, mode)
    fs.linkSync(temp, file)
    syncDir(path.dirname(file))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    fs.rmSync(temp, { force: true })
  }
}
