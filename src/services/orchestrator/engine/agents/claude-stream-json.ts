/**
 * Reads Claude Code's `--output-format stream-json` output line by line. Usage and cost come
 * from the final `{"type":"result", …}` object; the model from the `system`/`init` line. Lines
 * that are not JSON (warnings, wrappers printing text) are ignored, never fatal.
 */
import type { Usage } from '../types.js'

export interface ClaudeStreamResult {
  usage: Usage
  isError: boolean
  /** The result text (or error subtype) of the final object. */
  text: string
}

export function createClaudeStreamParser() {
  let model: string | undefined
  let result: ClaudeStreamResult | undefined
  let activity = ''
  return {
    onLine(line: string): ClaudeStreamResult | undefined {
      const event = parseObject(line)
      if (!event) return undefined
      if (event.type === 'system' && typeof event.model === 'string') model = event.model
      if (event.type === 'assistant') activity = describeAssistant(event) ?? activity
      if (event.type !== 'result') return undefined
      const usage = isObject(event.usage) ? event.usage : {}
      const inputTokens = count(usage.input_tokens) + count(usage.cache_read_input_tokens) + count(usage.cache_creation_input_tokens)
      const cost = typeof event.total_cost_usd === 'number' && Number.isFinite(event.total_cost_usd) ? event.total_cost_usd : null
      result = {
        usage: { inputTokens, outputTokens: count(usage.output_tokens), costUsd: cost, ...(model ? { model } : {}) },
        isError: event.is_error === true,
        text: typeof event.result === 'string' ? event.result : typeof event.subtype === 'string' ? event.subtype : ''
      }
      return result
    },
    result: () => result,
    /** What the agent did last (its latest text, or the tool it called), for heartbeats. */
    activity: () => activity
  }
}

function describeAssistant(event: Record<string, unknown>): string | undefined {
  const content = isObject(event.message) && Array.isArray(event.message.content) ? event.message.content : []
  let described: string | undefined
  for (const part of content) {
    if (!isObject(part)) continue
    if (part.type === 'text' && typeof part.text === 'string' && part.text.trim()) described = part.text.trim().split('\n')[0]
    if (part.type === 'tool_use' && typeof part.name === 'string') described = `using ${part.name}`
  }
  return described
}

function parseObject(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim()
  if (!trimmed.startsWith('{')) return undefined
  try {
    const value: unknown = JSON.parse(trimmed)
    return isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0)
