/**
 * Command agents: an installed CLI (Claude Code, Codex, Gemini, aider, or any argv) run once per
 * attempt with the task prompt. The preset gives the argv template and how its output is read;
 * a configured argv replaces the preset's template.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AgentConfig } from '../../project/config-schema.js'

export type CommandAgentConfig = Extract<AgentConfig, { kind: 'command' }>
export type AgentOutputFormat = 'text' | 'claude-stream-json'
export type CommandPreset = NonNullable<CommandAgentConfig['preset']>

export const COMMAND_PRESETS: Record<CommandPreset, { argv: readonly string[]; output: AgentOutputFormat }> = {
  claude: { argv: ['claude', '-p', '{prompt}', '--output-format', 'stream-json', '--verbose'], output: 'claude-stream-json' },
  codex: { argv: ['codex', 'exec', '{prompt}'], output: 'text' },
  gemini: { argv: ['gemini', '-p', '{prompt}'], output: 'text' },
  aider: { argv: ['aider', '--yes-always', '--message', '{prompt}'], output: 'text' }
}

export interface PlaceholderValues {
  prompt: string
  promptFile: string
  taskId: string
  workdir: string
}

export interface ResolvedCommand {
  command: string
  args: string[]
  output: AgentOutputFormat
}

/** The argv template and output format of a command agent; throws when it has neither preset nor argv. */
export function commandTemplate(name: string, agent: CommandAgentConfig): { argv: readonly string[]; output: AgentOutputFormat } {
  const preset = agent.preset ? COMMAND_PRESETS[agent.preset] : undefined
  const argv = agent.argv ?? preset?.argv
  if (!argv || argv.length === 0) {
    throw new Error(`agent "${name}" has neither a preset (claude, codex, gemini, aider) nor an argv in .quartet/config.json`)
  }
  return { argv, output: agent.output ?? preset?.output ?? 'text' }
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

export function resolveCommand(name: string, agent: CommandAgentConfig, values: PlaceholderValues): ResolvedCommand {
  const template = commandTemplate(name, agent)
  const [command, ...args] = substitutePlaceholders(template.argv, values)
  if (!command) throw new Error(`agent "${name}" has an empty command`)
  return { command, args, output: template.output }
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
