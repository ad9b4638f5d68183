/**
 * Codex (`codex exec --json`). Worktree posture: the `workspace-write` sandbox (writes and
 * commands inside the worktree; writes elsewhere refused by the sandbox). `exec` never asks a
 * person (its approval policy is always "never"). Ask: the same sandbox, and every shell command
 * first goes to a human through a PreToolUse hook running `quartet approval-hook` (Codex blocks a
 * call only when the hook exits 2). Hooks from the command line are untrusted unless
 * `--dangerously-bypass-hook-trust` is given: that flag trusts every configured hook, so `ask`
 * suits a Codex home whose hooks you trust. `full` drops the sandbox.
 */
import { shellWord } from './quartet-command.js'
import { count, describeCall, isObject, parseObject, text, type AgentReport, type CommandDriver, type OutputReader } from './driver.js'

/** How long `quartet approval-hook` waits for a human before it blocks the call (one day). */
export const HOOK_DEADLINE_SECONDS = 86_400

export const codexDriver: CommandDriver = {
  type: 'command',
  name: 'codex',
  label: 'Codex',
  bin: 'codex',
  output: 'codex-json',
  permissions: ['worktree', 'ask', 'full'],
  launch(context) {
    const sandbox = context.permissions === 'full' ? 'danger-full-access' : 'workspace-write'
    // A project inside a non-git folder still runs (worktrees are git, but `use_worktrees: false` is not).
    const argv = ['codex', 'exec', '--json', '-s', sandbox, '--skip-git-repo-check']
    if (context.permissions === 'ask') {
      const hook = [context.approvalHook.command, ...context.approvalHook.args, '--deadline-seconds', String(HOOK_DEADLINE_SECONDS)]
        .map(shellWord)
        .join(' ')
      // Codex lets the call run when a hook outlives its timeout (test/agents/codex.contract.test.ts): the hook's own
      // deadline (exit 2) comes first. A TOML value for -c: a JSON string is a valid TOML basic string.
      const timeout = HOOK_DEADLINE_SECONDS + 60
      const hooks = `[{matcher = "Bash", hooks = [{type = "command", command = ${JSON.stringify(hook)}, timeout = ${timeout}}]}]`
      argv.push('--dangerously-bypass-hook-trust', '-c', `hooks.PreToolUse=${hooks}`)
    }
    return { argv: [...argv, '{prompt}'], env: {} }
  }
}

/** `--json` events: thread.started, item.*, turn.completed (usage), turn.failed / error. No cost. */
export function createCodexJsonReader(): OutputReader {
  let sessionId: string | undefined
  let error: string | undefined
  let activity = ''
  let input = 0
  let output = 0
  let sawUsage = false
  const denials: string[] = []
  return {
    onLine(line) {
      const event = parseObject(line)
      if (!event) {
        // A rejected patch leaves no --json item, only a log line on stderr.
        const rejected = /patch rejected: ([^\n]*)/.exec(line)
        if (rejected) denials.push(`apply_patch (${rejected[1]!.trim()})`)
        return
      }
      if (event.type === 'thread.started' && typeof event.thread_id === 'string') sessionId = event.thread_id
      if (event.type === 'turn.completed' && isObject(event.usage)) {
        sawUsage = true
        input += count(event.usage.input_tokens)
        output += count(event.usage.output_tokens)
      }
      if (event.type === 'turn.failed' && isObject(event.error)) error = text(event.error.message) ?? error
      if (event.type === 'error') error = text(event.message) ?? error
      const item = isObject(event.item) ? event.item : undefined
      if (event.type === 'item.completed' && item) {
        if (item.type === 'agent_message') activity = text(item.text)?.split('\n')[0] ?? activity
        if (item.type === 'command_execution') {
          activity = describeCall('running', { command: item.command })
          const out = typeof item.aggregated_output === 'string' ? item.aggregated_output : ''
          if (/rejected|escalated permissions|Read-only file system/i.test(out))
            denials.push(describeCall('command', { command: item.command }))
        }
        if (item.type === 'file_change') activity = 'editing files'
      }
    },
    report(): AgentReport {
      return {
        ...(sawUsage ? { usage: { inputTokens: input, outputTokens: output, costUsd: null } } : {}),
        ...(error ? { error } : {}),
        denials,
        ...(sessionId ? { sessionId } : {})
      }
    },
    activity: () => activity
  }
}
