import fs from 'node:fs'
import path from 'node:path'
import type { ProjectOptions } from './options.js'
import { EarlyStdioTransport, MCP_SERVER_NAME } from '../mcp/early-stdio.js'

/**
 * `quartet mcp`: stdout carries the protocol, so this command prints nothing of its own there.
 * It talks to the running server over HTTP and never opens the project itself, so it loads
 * neither the engine nor the config schemas: the project is `--project`, else QUARTET_PROJECT,
 * else the working directory, exactly as the orchestrator's config resolves it. Claude Code in
 * `-p` mode does not wait for a slow MCP server, and a first permission request would find no
 * tool: stdin is read and `initialize` answered before the MCP SDK, zod and the HTTP client load.
 */
export async function mcpCommand(options: ProjectOptions, version: string): Promise<number> {
  const projectRoot = path.resolve(options.project ?? (process.env.QUARTET_PROJECT || '.'))
  if (!fs.statSync(projectRoot, { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write(`The project directory ${projectRoot} does not exist.\n`)
    return 2
  }
  const transport = new EarlyStdioTransport(process.stdin, process.stdout, { name: MCP_SERVER_NAME, version })
  const [{ randomBytes }, { nodePlatform }, { createOrchestratorClient }, { serveMcpOverStdio }] = await Promise.all([
    import('node:crypto'),
    import('../../../core/platform.js'),
    import('../mcp/orchestrator-client.js'),
    import('../mcp/server.js')
  ])
  const client = createOrchestratorClient({ projectRoot, env: process.env, fetch: nodePlatform().fetch })
  const session = process.env.QUARTET_MCP_SESSION ?? `mcp-${process.pid}-${randomBytes(4).toString('hex')}`
  await serveMcpOverStdio({ client, version, session, taskId: process.env.QUARTET_TASK_ID || undefined }, transport)
  return 0
}
