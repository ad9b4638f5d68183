import fs from 'node:fs'
import path from 'node:path'
import { writePrivateFileAtomic } from '../../runtime/private-file.js'

/**
 * Raw (unmasked) approval arguments live outside the database, in a 0700 folder of the data
 * directory as one 0600 file per request. The reference is relative to the data directory and
 * is never served; only an operator with file access can read the raw values.
 */
export function rawArgsRef(id: string): string {
  return path.join('orchestrator', 'approvals', 'raw', `${id}.json`)
}

export function writeRawArgs(dataDir: string, id: string, args: unknown): string {
  const ref = rawArgsRef(id)
  writePrivateFileAtomic(path.join(dataDir, ref), `${JSON.stringify(args)}\n`)
  return ref
}

export function readRawArgs(dataDir: string, ref: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(dataDir, ref), 'utf8'))
}
