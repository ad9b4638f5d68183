/**
 * Claude Code (`claude -p`). Worktree posture: `--permission-mode acceptEdits` (edits inside the
 * working directory run; other tools are refused as permission denials). Ask: the same, plus
 * Quartet's MCP permission tool for everything acceptEdits would refuse, wired with the task id.
 */
import type { CommandDriver, LaunchContext } from './driver.js'

const BASE = ['claude', '-p', '{prompt}', '--output-format', 'stream-json', '--verbose']

export const claudeDriver: CommandDriver = {
  type: 'command',
  name: 'claude',
  label: 'Claude Code',
  bin: 'claude',
  output: 'claude-stream-json',
  permissions: ['worktree', 'ask', 'full'],
  launch(context: LaunchContext) {
    if (context.permissions === 'full') return { argv: [...BASE, '--permission-mode', 'bypassPermissions'], env: {} }
    if (context.permissions === 'worktree') return { argv: [...BASE, '--permission-mode', 'acceptEdits'], env: {} }
    const server = {
      command: context.mcp.command,
      args: context.mcp.args,
      env: { QUARTET_TASK_ID: context.taskId, QUARTET_SPRINT_ID: context.sprintId, QUARTET_MCP_SESSION: `task:${context.taskId}` }
    }
    return {
      argv: [
        ...BASE,
        '--permission-mode',
        'acceptEdits',
        '--mcp-config',
        JSON.stringify({ mcpServers: { quartet: server } }),
        '--permission-prompt-tool',
        'mcp__quartet__permission_prompt'
      ],
      env: {}
    }
  }
}
