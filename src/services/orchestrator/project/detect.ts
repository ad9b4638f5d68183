/**
 * What `quartet init` can offer without asking: the coding CLIs on PATH (found, never run) and a
 * local ollama server that answers.
 */
import { COMMAND_DRIVERS, COMMAND_PRESET_NAMES } from '../engine/agents/registry.js'
import type { EnginePlatform } from '../engine/types.js'
import type { AgentConfig } from './config-schema.js'
import { findExecutable } from '../../../core/cli/self-command.js'

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434'
const OLLAMA_PROBE_MS = 1500

export interface DetectedAgents {
  agents: Record<string, AgentConfig>
  /** What was found where, and what was not usable (for init's output). */
  notes: string[]
}

export async function detectAgents(platform: EnginePlatform, env: Record<string, string | undefined>): Promise<DetectedAgents> {
  const agents: Record<string, AgentConfig> = {}
  const notes: string[] = []
  for (const preset of COMMAND_PRESET_NAMES) {
    const driver = COMMAND_DRIVERS[preset]
    const found = findExecutable(driver.bin, env)
    if (found === null) continue
    // The posture is written out so the user sees it and where to change it.
    agents[preset] = { kind: 'command', preset, permissions: 'worktree' }
    notes.push(`${preset}: ${found} (${driver.label})`)
  }
  const ollama = await detectOllama(platform, env)
  if (ollama.agent) agents.ollama = ollama.agent
  notes.push(ollama.note)
  return { agents, notes }
}

/**
 * OLLAMA_HOST as ollama reads it: `host` or `host:port` (port 11434 by default), or a URL (its
 * scheme's default port); 0.0.0.0 is a bind address, reached as 127.0.0.1.
 */
export function ollamaBaseUrl(env: Record<string, string | undefined>): string {
  const raw = env.OLLAMA_HOST?.trim()
  if (!raw) return DEFAULT_OLLAMA_URL
  const hasScheme = /^https?:\/\//i.test(raw)
  try {
    const url = new URL(hasScheme ? raw : `http://${raw}`)
    if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1'
    if (!hasScheme && url.port === '' && !/:\d+$/.test(raw)) url.port = '11434'
    return url.origin
  } catch {
    return DEFAULT_OLLAMA_URL
  }
}

async function detectOllama(
  platform: EnginePlatform,
  env: Record<string, string | undefined>
): Promise<{ agent?: AgentConfig; note: string }> {
  const base = ollamaBaseUrl(env)
  try {
    const response = await platform.fetch(`${base}/api/tags`, { signal: AbortSignal.timeout(OLLAMA_PROBE_MS) })
    if (!response.ok) return { note: `ollama: ${base} answered HTTP ${response.status}` }
    const body = (await response.json()) as { models?: { name?: unknown }[] }
    const model = body.models?.map((m) => m.name).find((name): name is string => typeof name === 'string' && name !== '')
    if (model === undefined) return { note: `ollama: ${base} answers but has no models (ollama pull <model>)` }
    return { agent: { kind: 'ollama', base_url: base, model }, note: `ollama: ${base}, model ${model}` }
  } catch (error) {
    return { note: `ollama: not reachable at ${base} (${error instanceof Error ? error.message : String(error)})` }
  }
}
