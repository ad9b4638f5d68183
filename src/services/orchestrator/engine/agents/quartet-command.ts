// This installation's own CLI as a command (for an agent's MCP permission tool and `quartet init`'s lines).
import path from 'node:path'
import { selfCommand } from '../../../../core/cli/self-command.js'
import { runtimeDir } from '../../runtime/private-file.js'
import type { LaunchContext } from './driver.js'

export { selfCommand as quartetCommand, selfCommandLine as quartetCommandLine, shellWord } from '../../../../core/cli/self-command.js'

/** What a driver needs to start a task's agent in this project: its ids, environment and Quartet's own tools. */
export function launchContext(
  projectRoot: string,
  task: { taskId: string; sprintId: string },
  env: Record<string, string | undefined>
): Omit<LaunchContext, 'permissions'> {
  return {
    ...task,
    env,
    mcp: selfCommand(['mcp', '--project', projectRoot]),
    approvalHook: selfCommand(['approval-hook', '--project', projectRoot]),
    stateDir: path.join(runtimeDir(projectRoot), 'agents', task.taskId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_'))
  }
}
