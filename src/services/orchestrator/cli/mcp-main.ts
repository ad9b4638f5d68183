/**
 * The fast entry of `quartet mcp` (src/cli/main.ts hands it the arguments before loading commander
 * and the service registry, which cost seconds): an agent's MCP client gives up on a server that has
 * not answered `initialize` when its first tool call comes.
 */
import { parseArgs } from 'node:util'
import { mcpCommand } from './mcp.js'
import { packageVersion } from '../version.js'

/** Answers the exit code; undefined when the arguments are not plain `--project` / `--data-dir` (commander handles them). */
export async function mcpMain(args: string[]): Promise<number | undefined> {
  let values: { project?: string | undefined }
  try {
    // --data-dir is accepted like on every project command; the MCP server reaches the project over HTTP, not its data.
    values = parseArgs({ args, options: { project: { type: 'string' }, 'data-dir': { type: 'string' } }, strict: true }).values
  } catch {
    return undefined
  }
  return mcpCommand(values.project ? { project: values.project } : {}, packageVersion())
}
