/**
 * OpenCode (`opencode run --format json`). Its posture is configuration, passed in
 * OPENCODE_CONFIG_CONTENT (merged over any the user set there): worktree allows edits, denies the
 * shell and anything outside the directory; `full` allows all three. `opencode run` auto-rejects
 * every "ask", so `ask` is not offered.
 */
import { count, describeCall, isObject, parseObject, text, type AgentReport, type CommandDriver, type OutputReader } from './driver.js'

const POSTURE = {
  worktree: { edit: 'allow', bash: 'deny', external_directory: 'deny' },
  full: { edit: 'allow', bash: 'allow', external_directory: 'allow' }
}

export const opencodeDriver: CommandDriver = {
  type: 'command',
  name: 'opencode',
  label: 'OpenCode',
  bin: 'opencode',
  output: 'opencode-json',
  permissions: ['worktree', 'full'],
  launch(context) {
    let config: Record<string, unknown> = {}
    try {
      const parsed: unknown = JSON.parse(context.env.OPENCODE_CONFIG_CONTENT ?? '{}')
      if (isObject(parsed)) config = parsed
    } catch {
      // Not JSON: OpenCode would reject it too; the posture alone is passed.
    }
    const permission = context.permissions === 'full' ? POSTURE.full : POSTURE.worktree
    return {
      argv: ['opencode', 'run', '--format', 'json', '{prompt}'],
      env: { OPENCODE_CONFIG_CONTENT: JSON.stringify({ ...config, permission }) }
    }
  }
}

/** `--format json`: {type, sessionID, part}; usage per step_finish; cost 0 means "not priced", so unknown. */
export function createOpencodeJsonReader(): OutputReader {
  let sessionId: string | undefined
  let error: string | undefined
  let activity = ''
  let input = 0
  let output = 0
  let cost = 0
  let steps = 0
  const denials: string[] = []
  return {
    onLine(line) {
      const event = parseObject(line)
      // An "ask" is auto-rejected in `opencode run`, said only on stderr.
      const rejected = /permission requested: ([^;]*); auto-rejecting/.exec(line)
      if (rejected) denials.push(`${rejected[1]!.trim()} (auto-rejected)`)
      if (!event) return
      if (typeof event.sessionID === 'string') sessionId = event.sessionID
      const part = isObject(event.part) ? event.part : {}
      if (event.type === 'step_finish') {
        steps++
        const tokens = isObject(part.tokens) ? part.tokens : {}
        const cache = isObject(tokens.cache) ? tokens.cache : {}
        input += count(tokens.input) + count(cache.read) + count(cache.write)
        output += count(tokens.output) + count(tokens.reasoning)
        if (typeof part.cost === 'number' && Number.isFinite(part.cost)) cost += part.cost
      }
      if (event.type === 'text') activity = text(part.text)?.split('\n')[0] ?? activity
      if (event.type === 'tool_use' && typeof part.tool === 'string') {
        activity = `using ${part.tool}`
        const state = isObject(part.state) ? part.state : {}
        const message = text(state.error)
        if (state.status === 'error' && message && /rejected permission|rule which prevents|unavailable tool/i.test(message))
          denials.push(`${describeCall(part.tool, state.input)}: ${message.split('\n')[0]}`)
      }
      if (event.type === 'error' && isObject(event.error)) {
        const data = isObject(event.error.data) ? event.error.data : {}
        const status = typeof data.statusCode === 'number' ? ` (HTTP ${data.statusCode})` : ''
        error = `${text(data.message) ?? text(event.error.name) ?? 'error'}${status}`
      }
    },
    report(): AgentReport {
      return {
        ...(steps > 0 ? { usage: { inputTokens: input, outputTokens: output, costUsd: cost > 0 ? cost : null } } : {}),
        ...(error ? { error } : {}),
        denials,
        ...(sessionId ? { sessionId } : {})
      }
    },
    activity: () => activity
  }
}
