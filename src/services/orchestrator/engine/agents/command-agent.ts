/**
 * The generic command agent, and how any command agent is launched: a preset names a driver
 * (registry.ts) that gives the argv, environment and output reader for the configured posture;
 * a configured argv replaces the preset's template (the user's argv then decides the posture).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AgentConfig } from '../../project/config-schema.js'
import type { LaunchContext, OutputReader, Permissions } from './driver.js'
import { COMMAND_DRIVERS, OUTPUT_FORMATS, type AgentOutputFormat } from './registry.js'

export type CommandAgentConfig = Extract<AgentConfig, { kind: 'command' }>
export type { AgentOutputFormat }

export interface PlaceholderValues {
  prompt: string
  promptFile: string
  taskId: string
  workdir: string
}

export interface ResolvedCommand {
  command: string
  args: string[]
  /** Added to the agent's environment (after its configured `env`). */
  env: Record<string, string>
  output: AgentOutputFormat
  reader(): OutputReader
}

export type TemplateContext = Omit<LaunchContext, 'permissions'>

const DEFAULT_CONTEXT: TemplateContext = {
  taskId: '{taskId}',
  sprintId: '',
  env: {},
  mcp: { command: 'quartet', args: ['mcp'] },
  approvalHook: { command: 'quartet', args: ['approval-hook'] },
  stateDir: '.quartet/runtime/agents/{taskId}'
}

export function permissionsOf(agent: CommandAgentConfig): Permissions {
  return agent.permissions ?? 'worktree'
}

/**
 * The argv template, added environment and output format of a command agent; throws when it has
 * neither preset nor argv, or when its preset's CLI cannot honour the configured posture.
 */
export function commandTemplate(
  name: string,
  agent: CommandAgentConfig,
  context: TemplateContext = DEFAULT_CONTEXT
): { argv: readonly string[]; env: Record<string, string>; output: AgentOutputFormat; prepare?: () => void } {
  const driver = agent.preset ? COMMAND_DRIVERS[agent.preset] : undefined
  const permissions = permissionsOf(agent)
  if (driver && !agent.argv && !driver.permissions.includes(permissions)) {
    throw new Error(
      `agent "${name}": ${driver.label} cannot run with permissions "${permissions}" ` +
        `(it offers ${driver.permissions.join(', ')}; see docs/orchestrator-agents.md)`
    )
  }
  const launch = driver?.launch({ ...context, permissions })
  const argv = agent.argv ?? launch?.argv
  if (!argv || argv.length === 0) {
    throw new Error(`agent "${name}" has neither a preset (${Object.keys(COMMAND_DRIVERS).join(', ')}) nor an argv in .quartet/config.json`)
  }
  const output = agent.output ?? (driver?.output as AgentOutputFormat | undefined) ?? 'text'
  if (agent.argv) return { argv, env: {}, output }
  return { argv, env: launch?.env ?? {}, output, ...(launch?.prepare ? { prepare: launch.prepare } : {}) }
}

const PLACEHOLDER = /\{(prompt|promptFile|taskId|workdir)\}/g

/**
 * Substitutes the placeholders inside each element in one pass, so text that arrives through a
 * value (a prompt mentioning "{taskId}") is never substituted again. Each element stays one argv
 * entry: nothing is ever handed to a shell.
 */
export function substitutePlaceholders(argv: readonly string[], values: PlaceholderValues): string[] {
  return argv.map((element) => element.replace(PLACEHOLDER, (_, key: keyof PlaceholderValues) => values[key]))
}

export function resolveCommand(
  name: string,
  agent: CommandAgentConfig,
  values: PlaceholderValues,
  context: TemplateContext = DEFAULT_CONTEXT
): ResolvedCommand {
  const template = commandTemplate(name, agent, context)
  template.prepare?.()
  const [command, ...args] = substitutePlaceholders(template.argv, values)
  if (!command) throw new Error(`agent "${name}" has an empty command`)
  return { command, args, env: template.env, output: template.output, reader: OUTPUT_FORMATS[template.output] }
}

/**
 * The prompt is written under the data dir, never inside the worktree, so it cannot end up in
 * the task's diff or commit.
 */
export function writePromptFile(dataDir: string, sprintId: string, taskId: string, attempt: number, prompt: string): string {
  const file = path.join(dataDir, 'prompts', safeName(sprintId), `${safeName(taskId)}.attempt-${attempt}.md`)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, prompt, { mode: 0o600 })
  return file
}

function safeName(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_'
}
