/**
 * The one interface every agent kind implements (one file per kind, listed in registry.ts): how
 * to start it for a task in a worktree under a permission posture, how to read what it prints
 * (usage, cost, session, its own error, refused tool calls), and how to find it on this machine.
 */
import type { Usage } from '../types.js'

/**
 * What the agent may do without a human: `worktree` edits files inside its task's worktree and
 * nothing else needs a person or is refused; `ask` sends everything beyond that to Quartet's
 * approvals (drivers whose CLI has a permission hook); `full` lets it do anything (no sandbox).
 */
export const PERMISSION_POSTURES = ['worktree', 'ask', 'full'] as const
export type Permissions = (typeof PERMISSION_POSTURES)[number]

/** What a reader made of an agent's output once it exited. */
export interface AgentReport {
  /** Absent when the output carries no usage (plain text). Cost null when the agent reports none. */
  usage?: Usage
  /** The agent's own final error (API error, rate limit …), in its words. */
  error?: string
  /** Tool calls the agent's permission posture refused: "Write hello.txt", "apply_patch: …". */
  denials: string[]
  sessionId?: string
}

export interface OutputReader {
  onLine(line: string): void
  report(): AgentReport
  /** What the agent did last (its latest text or tool), for heartbeats; '' when unknown. */
  activity(): string
}

/** How a run of a command agent is started (argv templates keep the {placeholders}). */
export interface DriverLaunch {
  argv: string[]
  env: Record<string, string>
  /** Writes what the run needs outside the worktree (under the context's stateDir); called just before it starts. */
  prepare?: () => void
}

export interface LaunchContext {
  permissions: Permissions
  taskId: string
  sprintId: string
  /** The environment the agent would get (the process's plus the agent's `env`), to merge into. */
  env: Record<string, string | undefined>
  /** How to start Quartet's MCP server for this project (for a CLI with an MCP permission tool). */
  mcp: { command: string; args: string[] }
  /** How to run `quartet approval-hook` for this project (for a CLI with a pre-tool hook). */
  approvalHook: { command: string; args: string[] }
  /** A folder of this task's own, outside any worktree, for configuration a CLI reads only from files. */
  stateDir: string
}

export interface CommandDriver {
  type: 'command'
  /** The preset name in .quartet/config.json ("claude"). */
  name: string
  label: string
  /** The program looked for on PATH by init and doctor. */
  bin: string
  /** The output format its default argv produces (a key of OUTPUT_FORMATS). */
  output: string
  /** Postures this CLI can honour; a configured one outside this list is refused before the run. */
  permissions: readonly Permissions[]
  /** The argv template (with {prompt} …) and environment for one run. */
  launch(context: LaunchContext): DriverLaunch
}

export interface ProviderDriver {
  type: 'provider'
  name: 'openai-compatible' | 'ollama'
  label: string
  /** Providers propose a diff that Quartet applies inside the worktree: `worktree` is the only posture. */
  permissions: readonly Permissions[]
}

export type AgentDriver = CommandDriver | ProviderDriver

// Shared by the readers: output lines are JSON objects, or noise that is ignored, never fatal.
export function parseObject(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim()
  if (!trimmed.startsWith('{')) return undefined
  try {
    const value: unknown = JSON.parse(trimmed)
    return isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0)

export const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined)

/** A tool call as one short line: its name and its most telling argument. */
export function describeCall(tool: string, input: unknown): string {
  if (!isObject(input)) return tool
  const detail = ['file_path', 'path', 'filePath', 'command', 'absolute_path'].map((key) => input[key]).find((v) => typeof v === 'string')
  return detail === undefined ? tool : `${tool} ${String(detail).slice(0, 120)}`
}

/** A reader for plain text: nothing structured, the latest line is the activity. */
export function createTextReader(): OutputReader {
  let last = ''
  return {
    onLine: (line) => {
      if (line.trim()) last = line.trim()
    },
    report: () => ({ denials: [] }),
    activity: () => last
  }
}
