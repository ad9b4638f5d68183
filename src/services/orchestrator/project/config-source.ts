/**
 * The one reader of `<project>/.quartet/config.json` for a running orchestrator (server, CLI,
 * job): validated once per change of the file (cached by its mtime, size and inode), with one
 * policy for an invalid file — work that needs the configuration is refused with an error that
 * names the file and every bad key; diagnostics (`doctor`, `/api/agents`) read the errors instead.
 */
import fs from 'node:fs'
import { orchestratorError } from '../errors.js'
import type { ProjectConfig } from './config-schema.js'
import {
  loadProjectConfig,
  mergeProjectConfig,
  projectConfigPath,
  type ConfigError,
  type MergeResult,
  type ProjectConfigResult
} from './config.js'

export interface ProjectConfigSource {
  readonly file: string
  /** The file as read and validated (defaults when it is missing); errors are listed, never thrown. */
  read(): ProjectConfigResult
  /** The effective configuration; throws ORCH_CONFIG_INVALID naming the file and each bad key. */
  current(): ProjectConfig
  /** Deep-merges a patch into the file (validated before anything is written). */
  merge(patch: unknown): MergeResult
}

/** `invalid <file>: <key> <problem>; …` — the one wording of an invalid configuration. */
export function describeConfigErrors(file: string, errors: readonly ConfigError[]): string {
  return `invalid ${file}: ${errors.map((e) => (e.path ? `${e.path} ${e.message}` : e.message)).join('; ')}`
}

export function invalidConfigError(file: string, errors: readonly ConfigError[]) {
  return orchestratorError('ORCH_CONFIG_INVALID', describeConfigErrors(file, errors), {
    details: errors.map((e) => ({ pointer: e.path, message: e.message }))
  })
}

interface Stamp {
  mtimeMs: number
  size: number
  ino: number
}

function stampOf(file: string): Stamp | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false })
  return stat ? { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino } : null
}

function sameStamp(a: Stamp | null, b: Stamp | null): boolean {
  if (a === null || b === null) return a === b
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino
}

export function createProjectConfigSource(projectRoot: string): ProjectConfigSource {
  const file = projectConfigPath(projectRoot)
  let cached: { stamp: Stamp | null; result: ProjectConfigResult } | undefined

  function read(): ProjectConfigResult {
    const stamp = stampOf(file)
    if (cached && sameStamp(cached.stamp, stamp)) return cached.result
    const result = loadProjectConfig(projectRoot)
    // The stamp read before the content: a write in between changes it again and is read next time.
    cached = { stamp, result }
    return result
  }

  return {
    file,
    read,
    current() {
      const result = read()
      if (result.errors.length > 0) throw invalidConfigError(file, result.errors)
      return result.config
    },
    merge(patch) {
      const merged = mergeProjectConfig(projectRoot, patch)
      cached = undefined
      return merged
    }
  }
}
