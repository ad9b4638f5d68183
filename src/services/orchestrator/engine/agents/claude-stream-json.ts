/**
 * Reads Claude Code's `--output-format stream-json` (Qwen Code's `-o stream-json` has the same
 * shape). Usage, cost, the refused calls and the agent's own error come from the final
 * `{"type":"result"}` object; the model and session from `system`/`init`.
 */
import { count, createTextReader, describeCall, isObject, parseObject, text, type AgentReport, type OutputReader } from './driver.js'

export function createClaudeStreamReader(): OutputReader {
  let model: string | undefined
  let sessionId: string | undefined
  let activity = ''
  let report: AgentReport | undefined
  const plain = createTextReader()
  return {
    onLine(line) {
      const event = parseObject(line)
      if (!event) return plain.onLine(line)
      if (event.type === 'system' && typeof event.model === 'string') model = event.model
      if (typeof event.session_id === 'string') sessionId = event.session_id
      if (event.type === 'assistant') activity = describeAssistant(event) ?? activity
      if (event.type !== 'result') return
      const usage = isObject(event.usage) ? event.usage : {}
      const inputTokens = count(usage.input_tokens) + count(usage.cache_read_input_tokens) + count(usage.cache_creation_input_tokens)
      const cost = typeof event.total_cost_usd === 'number' && Number.isFinite(event.total_cost_usd) ? event.total_cost_usd : null
      const denials = Array.isArray(event.permission_denials)
        ? event.permission_denials.filter(isObject).map((d) => describeCall(String(d.tool_name ?? 'tool'), d.tool_input))
        : []
      const isError = event.is_error === true || event.subtype === 'error_during_execution'
      const errorText = isObject(event.error) ? text(event.error.message) : undefined
      const status = typeof event.api_error_status === 'number' ? ` (HTTP ${event.api_error_status})` : ''
      const reason = errorText ?? text(event.result) ?? text(event.subtype) ?? 'error result'
      report = {
        usage: { inputTokens, outputTokens: count(usage.output_tokens), costUsd: cost, ...(model ? { model } : {}) },
        denials,
        ...(isError ? { error: `${reason}${status && !reason.includes(String(event.api_error_status)) ? status : ''}` } : {}),
        ...(sessionId ? { sessionId } : {})
      }
    },
    report: () => report ?? { denials: [], ...(sessionId ? { sessionId } : {}) },
    activity: () => activity || plain.activity()
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
