/**
 * `quartet mcp`: a stdio MCP server over the running orchestrator. Its tools read (inbox, status,
 * tasks, memory) or ask (the permission bridge); none decides an approval — decisions belong to
 * humans at the CLI's live-auth surface, the gated HTTP route or the approval.decide RPC.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import { z } from 'zod'
import { MCP_SERVER_NAME, type EarlyStdioTransport } from './early-stdio.js'
import type { OrchestratorClient } from './orchestrator-client.js'
import { askPermission } from './permission-tool.js'
import { approvalsInbox, memorySearch, projectStatus, tasks } from './read-tools.js'

export { MCP_SERVER_NAME } from './early-stdio.js'
export const PERMISSION_TOOL = 'permission_prompt'
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const

export interface QuartetMcpOptions {
  client: OrchestratorClient
  version: string
  /** Recorded as the requester of every permission request of this server. */
  session: string
  /** The task whose agent started this server (QUARTET_TASK_ID): its permission requests name it. */
  taskId?: string | undefined
}

export function createQuartetMcpServer(options: QuartetMcpOptions): McpServer {
  const { client } = options
  const server = new McpServer({ name: MCP_SERVER_NAME, version: options.version })

  server.registerTool(
    'approvals_inbox',
    {
      title: 'Approval Inbox (read-only)',
      description:
        'Pending approval requests of this Quartet project (arguments masked). Read-only: it cannot allow, deny or decide anything.',
      annotations: READ_ONLY
    },
    () => approvalsInbox(client)
  )

  server.registerTool(
    PERMISSION_TOOL,
    {
      title: 'Ask a human for permission',
      description:
        'Permission prompt for coding agents (Claude Code: --permission-prompt-tool mcp__quartet__permission_prompt). ' +
        'Records the requested action as a pending Quartet approval and waits until a human allows or denies it, or it expires.',
      inputSchema: {
        tool_name: z.string().min(1).max(200).describe('the tool the agent wants to use'),
        input: z.record(z.string(), z.unknown()).describe('the input it wants to call the tool with'),
        tool_use_id: z.string().max(200).optional()
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }
    },
    async (args, extra) => {
      const answer = await askPermission(client, options.session, args, extra.signal, options.taskId)
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] }
    }
  )

  server.registerTool(
    'project_status',
    {
      title: 'Project status',
      description: 'The Quartet run as it really is: lifecycle, sprint, progress, job, alerts.',
      annotations: READ_ONLY
    },
    () => projectStatus(client)
  )

  server.registerTool(
    'tasks',
    {
      title: 'Tasks',
      description: 'Tasks of the newest sprint, or one task in detail (plan, result, heartbeat, log tail) when an id is given.',
      inputSchema: {
        id: z
          .string()
          .min(1)
          .max(200)
          .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/)
          .optional()
          .describe('task id, e.g. s1-2')
      },
      annotations: READ_ONLY
    },
    ({ id }) => tasks(client, id)
  )

  server.registerTool(
    'memory_search',
    {
      title: 'Memory search',
      description: "Full-text search over the project's memory (reports when the server offers no memory).",
      inputSchema: { query: z.string().min(1).max(500), limit: z.number().int().min(1).max(50).optional() },
      annotations: READ_ONLY
    },
    ({ query, limit }) => memorySearch(client, query, limit)
  )

  return server
}

/**
 * Serves the tools over stdin/stdout until the client closes the pipe; `early` is the transport
 * that has listened (and answered `initialize`) while this module loaded.
 */
export async function serveMcpOverStdio(options: QuartetMcpOptions, early?: EarlyStdioTransport): Promise<void> {
  const server = createQuartetMcpServer(options)
  early?.useParser(deserializeMessage)
  const transport = early ?? new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve()
  })
  await server.connect(transport)
  await closed
}
