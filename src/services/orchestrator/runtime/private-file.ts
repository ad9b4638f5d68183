import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** `<project>/.quartet/runtime`, where the token and the handshake file live. */
export function runtimeDir(projectRoot: string): string {
  return path.join(path.resolve(projectRoot), '.quartet', 'runtime')
}

/** Creates the runtime directory (0700) and tightens it when it already existed with a looser mode. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  if ((fs.statSync(dir).mode & 0o077) !== 0) fs.chmodSync(dir, 0o700)
}

/**
 * Writes a secret-bearing file so that no reader ever sees it half-written or with a loose mode:
 * the temporary file is created 0600 (exclusive), flushed, then renamed over the target.
 */
export function writePrivateFileAtomic(file: string, content: string): void {
  ensurePrivateDir(path.dirname(file))
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const fd = fs.openSync(temporary, 'wx', 0o600)
  try {
    fs.writeSync(fd, content)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  try {
    fs.renameSync(temporary, file)
  } catch (error) {
    fs.rmSync(temporary, { force: true })
    throw error
  }
}
