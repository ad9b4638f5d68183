/**
 * Aider (`aider --message`). It edits the files of the repository it runs in and answers its own
 * confirmations (`--yes-always`); in the worktree posture it is told not to suggest shell commands,
 * so none runs. Output is plain text: no usage is read (cost unknown). Not run by the contract tests.
 */
import type { CommandDriver } from './driver.js'

export const aiderDriver: CommandDriver = {
  type: 'command',
  name: 'aider',
  label: 'Aider',
  bin: 'aider',
  output: 'text',
  permissions: ['worktree', 'full'],
  launch(context) {
    const shell = context.permissions === 'full' ? [] : ['--no-suggest-shell-commands']
    return { argv: ['aider', '--yes-always', ...shell, '--message', '{prompt}'], env: {} }
  }
}
