import fs from 'node:fs'
import path from 'node:path'
import { runtimeDir, writePrivateFileAtomic } from './private-file.js'

/** What a client needs to find a running server; a hint only: re-verify with GET /health. */
export interface ServeHandshake {
  pid: number
  port: number
  host: string
  version: string
  startedAt: string
  tokenFile?: string
}

export function handshakeFile(projectRoot: string): string {
  return path.join(runtimeDir(projectRoot), 'serve.json')
}

export function readHandshake(projectRoot: string): ServeHandshake | null {
  try {
    return JSON.parse(fs.readFileSync(handshakeFile(projectRoot), 'utf8')) as ServeHandshake
  } catch {
    return null
  }
}

export interface WriteHandshakeOptions {
  projectRoot: string
  port: number
  host: string
  version: string
  tokenFile?: string | undefined
  pid?: number
  clock?: () => Date
}

/** Writes `<project>/.quartet/runtime/serve.json` (0600, atomic) and returns its path. */
export function writeHandshake(options: WriteHandshakeOptions): string {
  const file = handshakeFile(options.projectRoot)
  const record: ServeHandshake = {
    pid: options.pid ?? process.pid,
    port: options.port,
    host: options.host,
    version: options.version,
    startedAt: (options.clock ?? (() => new Date()))().toISOString(),
    ...(options.tokenFile ? { tokenFile: options.tokenFile } : {})
  }
  writePrivateFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`)
  return file
}

/**
 * Removes the handshake file on close, but only while it still names this process: a second
 * server started on the same project meanwhile owns the file and keeps it.
 */
export function removeHandshake(projectRoot: string, pid: number = process.pid): boolean {
  const current = readHandshake(projectRoot)
  if (!current || current.pid !== pid) return false
  fs.rmSync(handshakeFile(projectRoot), { force: true })
  return true
}
