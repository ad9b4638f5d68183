/**
 * `<project>/.quartet/config.json`: read (deep-merged over the defaults and validated, references
 * included), patched (validated before anything is written, then replaced atomically with mode 0600
 * because it may hold api_auth_token) and created on `init`.
 */
import fs from 'node:fs'
import path from 'node:path'
import {
  CommandAgentSchema,
  DEFAULT_PROJECT_CONFIG,
  ProjectConfigSchema,
  ProviderAgentSchema,
  type AgentConfig,
  type ProjectConfig
} from './config-schema.js'
import { createFileExclusive, writeFileAtomic } from './atomic-write.js'
import { findJsonErrorPosition } from './json-position.js'
import { deepMerge, isPlainObject } from './merge.js'
import { describeSchemaErrors, type FieldError } from './schema-errors.js'

export type ConfigError = FieldError

export interface ProjectConfigResult {
  /** The effective configuration (defaults when the file is missing or unreadable). */
  config: ProjectConfig
  /** The file's own content; null when missing or unreadable. */
  raw: Record<string, unknown> | null
  exists: boolean
  errors: ConfigError[]
}

export function projectConfigPath(root: string): string {
  return path.join(root, '.quartet', 'config.json')
}

export function loadProjectConfig(root: string): ProjectConfigResult {
  const file = projectConfigPath(root)
  const read = readRaw(file)
  if (!read.exists) return { config: structuredClone(DEFAULT_PROJECT_CONFIG), raw: null, exists: false, errors: [] }
  if ('error' in read) return { config: structuredClone(DEFAULT_PROJECT_CONFIG), raw: null, exists: true, errors: [read.error] }
  const candidate = deepMerge(DEFAULT_PROJECT_CONFIG, read.raw)
  return { config: candidate as ProjectConfig, raw: read.raw, exists: true, errors: validateProjectConfig(candidate) }
}

export type MergeResult = { ok: true; config: ProjectConfig; raw: Record<string, unknown> } | { ok: false; errors: ConfigError[] }

/**
 * Applies `patch` to the file (objects merge, arrays and scalars replace, null deletes a key).
 * Synchronous on purpose: two merges in one process cannot interleave their read and write.
 */
export function mergeProjectConfig(root: string, patch: unknown): MergeResult {
  if (!isPlainObject(patch)) return { ok: false, errors: [{ path: '', message: 'the patch must be a JSON object' }] }
  const file = projectConfigPath(root)
  const read = readRaw(file)
  if (read.exists && 'error' in read) return { ok: false, errors: [read.error] }
  const raw = deepMerge(read.exists ? read.raw : {}, patch) as Record<string, unknown>
  const config = deepMerge(DEFAULT_PROJECT_CONFIG, raw)
  const errors = validateProjectConfig(config)
  if (errors.length > 0) return { ok: false, errors }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  writeFileAtomic(file, `${JSON.stringify(raw, null, 2)}\n`, 0o600)
  return { ok: true, config: config as ProjectConfig, raw }
}

/** Schema errors (agents checked one by one against the schema of their kind) plus cross-references. */
export function validateProjectConfig(candidate: unknown): ConfigError[] {
  if (!isPlainObject(candidate)) return [{ path: '', message: 'the configuration must be a JSON object' }]
  const agents = candidate.agents
  const errors = describeSchemaErrors(ProjectConfigSchema, { ...candidate, agents: {} })
  if (!isPlainObject(agents)) {
    errors.push({ path: 'agents', message: 'must be an object of named agents' })
    return errors
  }
  for (const [name, agent] of Object.entries(agents)) errors.push(...agentErrors(name, agent))
  if (errors.length > 0) return errors

  const config = candidate as ProjectConfig
  const names = Object.keys(config.agents)
  const listed = names.length > 0 ? names.join(', ') : 'none'
  if (config.default_agent !== undefined && !config.agents[config.default_agent]) {
    errors.push({ path: 'default_agent', message: `"${config.default_agent}" is not a configured agent (configured: ${listed})` })
  }
  const plannerAgent = config.planner.agent
  if (plannerAgent !== undefined) {
    const agent = config.agents[plannerAgent]
    if (!agent) errors.push({ path: 'planner.agent', message: `"${plannerAgent}" is not a configured agent (configured: ${listed})` })
    else if (agent.kind === 'command')
      errors.push({
        path: 'planner.agent',
        message: `"${plannerAgent}" is a command agent; the planner needs a provider agent (openai-compatible or ollama)`
      })
  }
  if (config.planner.mode === 'ai' && !Object.values(config.agents).some((a) => a.kind !== 'command')) {
    errors.push({ path: 'planner.mode', message: '"ai" needs a provider agent (openai-compatible or ollama)' })
  }
  return errors
}

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

function agentErrors(name: string, agent: unknown): ConfigError[] {
  const where = `agents.${name}`
  if (!AGENT_NAME.test(name))
    return [{ path: where, message: 'agent names are 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit' }]
  const kind = isPlainObject(agent) ? agent.kind : undefined
  // Checking against the schema of the agent's own kind gives one precise message instead of one per union branch.
  if (kind === 'command') return describeSchemaErrors(CommandAgentSchema, agent, where)
  if (kind === 'openai-compatible' || kind === 'ollama') return describeSchemaErrors(ProviderAgentSchema, agent, where)
  return [{ path: `${where}.kind`, message: 'must be one of "command", "openai-compatible", "ollama"' }]
}

type RawRead = { exists: false } | { exists: true; raw: Record<string, unknown> } | { exists: true; error: ConfigError }

function readRaw(file: string): RawRead {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false }
    return { exists: true, error: { path: '', message: `${file}: cannot be read: ${(error as Error).message}` } }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const at = findJsonErrorPosition(text)
    const where = at ? `line ${at.line}, column ${at.column} (offset ${at.offset})` : 'unknown position'
    return { exists: true, error: { path: '', message: `${file}: invalid JSON at ${where}: ${(error as Error).message.split('\n')[0]}` } }
  }
  if (!isPlainObject(value)) return { exists: true, error: { path: '', message: `${file}: must hold a JSON object` } }
  return { exists: true, raw: value }
}

export interface InitResult {
  configPath: string
  /** false when a config file already existed (it is never overwritten). */
  configCreated: boolean
  agents: string[]
  gitExclude: 'added' | 'present' | 'not-a-git-repo'
}

/** Creates `.quartet/config.json` with the detected agents (when absent) and keeps `.quartet/` out of git. */
export function initProject(root: string, detected: Record<string, AgentConfig>): InitResult {
  const file = projectConfigPath(root)
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const names = Object.keys(detected)
  const firstCommand = names.find((n) => detected[n]!.kind === 'command')
  const content: Record<string, unknown> = { agents: detected }
  const defaultAgent = firstCommand ?? names[0]
  if (defaultAgent !== undefined) content.default_agent = defaultAgent
  const created = createFileExclusive(file, `${JSON.stringify(content, null, 2)}\n`, 0o600)
  return { configPath: file, configCreated: created, agents: created ? names : [], gitExclude: excludeFromGit(root) }
}

function excludeFromGit(root: string): InitResult['gitExclude'] {
  const commonDir = findGitCommonDir(root)
  if (commonDir === null) return 'not-a-git-repo'
  const exclude = path.join(commonDir, 'info', 'exclude')
  const current = fs.existsSync(exclude) ? fs.readFileSync(exclude, 'utf8') : ''
  if (current.split('\n').some((line) => ['.quartet/', '.quartet', '/.quartet/', '/.quartet'].includes(line.trim()))) return 'present'
  fs.mkdirSync(path.dirname(exclude), { recursive: true })
  fs.appendFileSync(exclude, `${current === '' || current.endsWith('\n') ? '' : '\n'}.quartet/\n`)
  return 'added'
}

/** The repository's shared git dir (where info/exclude lives), also from a linked worktree; null outside git. */
function findGitCommonDir(start: string): string | null {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git')
    const stat = fs.statSync(dotGit, { throwIfNoEntry: false })
    if (stat?.isDirectory()) return dotGit
    if (stat?.isFile()) {
      const match = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'))
      if (!match) return null
      const gitDir = path.resolve(dir, match[1]!.trim())
      const common = path.join(gitDir, 'commondir')
      return fs.existsSync(common) ? path.resolve(gitDir, fs.readFileSync(common, 'utf8').trim()) : gitDir
    }
    if (path.dirname(dir) === dir) return null
  }
}
