/**
 * Every agent kind Quartet can run, and every output format it can read. The config schema, the
 * executor, `quartet init`, `quartet doctor` and the docs derive from these tables: a new driver
 * is one file and one line here.
 */
import { aiderDriver } from './aider.js'
import { claudeDriver } from './claude.js'
import { createClaudeStreamReader } from './claude-stream-json.js'
import { codexDriver, createCodexJsonReader } from './codex.js'
import { createTextReader, type CommandDriver, type OutputReader, type ProviderDriver } from './driver.js'
import { createGeminiStreamReader, geminiDriver } from './gemini.js'
import { createOpencodeJsonReader, opencodeDriver } from './opencode.js'
import { ollamaDriver, openaiCompatibleDriver } from './providers.js'
import { qwenDriver } from './qwen.js'

/** The presets of `{"kind": "command", "preset": …}`, in the order init offers them. */
export const COMMAND_DRIVERS = {
  claude: claudeDriver,
  codex: codexDriver,
  gemini: geminiDriver,
  opencode: opencodeDriver,
  qwen: qwenDriver,
  aider: aiderDriver
} as const satisfies Record<string, CommandDriver>

export type CommandPreset = keyof typeof COMMAND_DRIVERS
export const COMMAND_PRESET_NAMES = Object.keys(COMMAND_DRIVERS) as [CommandPreset, ...CommandPreset[]]

export const PROVIDER_DRIVERS = {
  'openai-compatible': openaiCompatibleDriver,
  ollama: ollamaDriver
} as const satisfies Record<string, ProviderDriver>

/** How a command agent's stdout/stderr is read (`output` in the config; a preset names its own). */
export const OUTPUT_FORMATS = {
  text: createTextReader,
  'claude-stream-json': createClaudeStreamReader,
  'codex-json': createCodexJsonReader,
  'gemini-stream-json': createGeminiStreamReader,
  'opencode-json': createOpencodeJsonReader
} as const satisfies Record<string, () => OutputReader>

export type AgentOutputFormat = keyof typeof OUTPUT_FORMATS
export const OUTPUT_FORMAT_NAMES = Object.keys(OUTPUT_FORMATS) as [AgentOutputFormat, ...AgentOutputFormat[]]

export function isOutputFormat(name: string): name is AgentOutputFormat {
  return Object.hasOwn(OUTPUT_FORMATS, name)
}
