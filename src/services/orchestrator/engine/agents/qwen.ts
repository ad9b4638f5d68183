/**
 * Qwen Code (`qwen -o stream-json`, Claude Code's output shape). Worktree posture:
 * `--approval-mode auto-edit` (file edits run, the shell is refused). Qwen Code does not refuse a
 * write outside the workspace in that mode (docs/orchestrator-agents.md#qwen-code-0244). `full`: `--yolo`.
 */
import type { CommandDriver } from './driver.js'

export const qwenDriver: CommandDriver = {
  type: 'command',
  name: 'qwen',
  label: 'Qwen Code',
  bin: 'qwen',
  output: 'claude-stream-json',
  permissions: ['worktree', 'full'],
  launch(context) {
    const mode = context.permissions === 'full' ? ['--yolo'] : ['--approval-mode', 'auto-edit']
    return { argv: ['qwen', '-o', 'stream-json', ...mode, '{prompt}'], env: {} }
  }
}
