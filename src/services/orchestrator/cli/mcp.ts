import { randomBytes } from 'node:crypto'
import { nodePlatform } from '../../../core/platform.js'
import type { CliRuntime } from '../../../core/service.js'
import type { ProjectOptions } from './options.js'
import { createOrchestratorClient } from '../mcp/orchestrator-client.js'
import { serveMcpOverStdio } from '../mcp/server.js'
import { resolveProject } from './context.js'
import { EXIT_OK } from './output.js'

/** `quartet mcp`: stdout carries the protocol, so this command prints nothing of its own there. */
export async function mcpCommand(runtime: CliRuntime, options: ProjectOptions, version: string): Promise<number> {
  const { projectRoot } = resolveProject(runtime, options)
  const client = createOrchestratorClient({ projectRoot, env: process.env, fetch: nodePlatform().fetch })
  const session = process.env.QUARTET_MCP_SESSION ?? `mcp-${process.pid}-${randomBytes(4).toString('hex')}`
  await serveMcpOverStdio({ client, version, session })
  return EXIT_OK
}
