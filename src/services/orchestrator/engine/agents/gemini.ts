/**
 * Gemini CLI (`gemini -p … -o stream-json`). Worktree posture: `--approval-mode auto_edit` (file
 * writes inside the workspace; no shell tool) with the worktree trusted for this run
 * (`--skip-trust`: a new worktree is an untrusted folder, which exits 55). Ask: the same, plus the
 * shell tool (`--allowed-tools`), every call of which first goes to a human through a BeforeTool
 * hook running `quartet approval-hook` (its settings live in a run's own home, gemini-home.ts).
 * Gemini blocks a call only on a "deny": the hook's words on exit 2, or its JSON; a hook that
 * fails silently or outlives its timeout lets the call run. `full`: `yolo`.
 */
import path from 'node:path'
import {
  count,
  describeCall,
  isObject,
  parseObject,
  text,
  type AgentReport,
  type CommandDriver,
  type DriverLaunch,
  type OutputReader
} from './driver.js'
import { prepareGeminiHome, realGeminiDir } from './gemini-home.js'
import { shellWord } from './quartet-command.js'

/** How long `quartet approval-hook` waits for a human before it blocks the call (one day). */
export const HOOK_DEADLINE_SECONDS = 86_400

export const geminiDriver: CommandDriver = {
  type: 'command',
  name: 'gemini',
  label: 'Gemini CLI',
  bin: 'gemini',
  output: 'gemini-stream-json',
  permissions: ['worktree', 'ask', 'full'],
  launch(context): DriverLaunch {
    const mode = context.permissions === 'full' ? 'yolo' : 'auto_edit'
    const argv = ['gemini', '-p', '{prompt}', '-o', 'stream-json', '--approval-mode', mode, '--skip-trust']
    if (context.permissions !== 'ask') return { argv, env: {} }
    // The task id rides in the command: Gemini may strip the environment it gives hooks (strict sanitization).
    const command = [
      `QUARTET_TASK_ID=${shellWord(context.taskId)}`,
      ...[context.approvalHook.command, ...context.approvalHook.args, '--deadline-seconds', String(HOOK_DEADLINE_SECONDS)].map(shellWord)
    ].join(' ')
    // Timeout in ms, past the hook's own deadline (exit 2 with its reason) because a timed-out hook is fail-open.
    const hook = { name: 'quartet-approval', type: 'command', command, timeout: (HOOK_DEADLINE_SECONDS + 60) * 1000 }
    const home = path.join(context.stateDir, 'gemini-home')
    return {
      argv: [...argv, '--allowed-tools', 'run_shell_command'],
      env: { GEMINI_CLI_HOME: home },
      prepare: () => prepareGeminiHome(home, realGeminiDir(context.env), 'run_shell_command', hook)
    }
  }
}
/** stream-json events: init, message, tool_use, tool_result, result (stats; status "error" with error.message). */
export function createGeminiStreamReader(): OutputReader {
  let sessionId: string | undefined
  let model: string | undefined
  let error: string | undefined
  let usage: AgentReport['usage']
  let activity = ''
  const calls = new Map<string, string>()
  const denials: string[] = []
  return {
    onLine(line) {
      const event = parseObject(line)
      if (!event) return
      if (event.type === 'init') {
        if (typeof event.session_id === 'string') sessionId = event.session_id
        if (typeof event.model === 'string') model = event.model
      }
      if (event.type === 'message' && event.role === 'assistant') activity = text(event.content)?.split('\n')[0] ?? activity
      if (event.type === 'tool_use' && typeof event.tool_name === 'string') {
        activity = `using ${event.tool_name}`
        if (typeof event.tool_id === 'string') calls.set(event.tool_id, describeCall(event.tool_name, event.parameters))
      }
      if (event.type === 'tool_result' && isObject(event.error)) {
        const type = String(event.error.type ?? '')
        if (/tool_not_registered|policy_violation|permission/i.test(type)) {
          const call = typeof event.tool_id === 'string' ? calls.get(event.tool_id) : undefined
          denials.push(`${call ?? 'tool'}: ${text(event.error.message) ?? type}`)
        }
      }
      if (event.type === 'result') {
        const stats = isObject(event.stats) ? event.stats : {}
        usage = {
          inputTokens: count(stats.input_tokens),
          outputTokens: count(stats.output_tokens),
          costUsd: null,
          ...(model ? { model } : {})
        }
        if (event.status === 'error') error = (isObject(event.error) ? text(event.error.message) : undefined) ?? 'error result'
      }
    },
    report: () => ({ ...(usage ? { usage } : {}), ...(error ? { error } : {}), denials, ...(sessionId ? { sessionId } : {}) }),
    activity: () => activity
  }
}
