import type { ApprovalRequestInput } from './approvals.service.js'
import type { PermissionRequestType } from './approvals.schemas.js'

// Claude Code's tool names → the reference's scopes; anything else is a lifecycle action.
const SCOPE_BY_TOOL: Record<string, string> = {
  Bash: 'shell-exec', Write: 'file-write', Edit: 'file-write', MultiEdit: 'file-write', NotebookEdit: 'file-write',
  Read: 'file-read', Glob: 'file-read', Grep: 'file-read', LS: 'file-read', WebFetch: 'network', WebSearch: 'network'
}

function firstString(input: Record<string, unknown>, keys: string[]): string | null {
  for (const key of keys) if (typeof input[key] === 'string' && input[key] !== '') return input[key]
  return null
}

/** An agent's permission request as an approval request (the summary is masked by the service like the arguments). */
export function describePermissionRequest(body: PermissionRequestType): ApprovalRequestInput {
  const subject = firstString(body.input, ['command', 'file_path', 'path', 'url', 'pattern', 'query'])
  return {
    requesterKind: 'agent',
    requesterId: `agent:${body.requester ?? 'unknown'}`,
    summary: body.summary ?? (subject ? `${body.toolName}: ${subject}` : `${body.toolName} (agent permission request)`),
    scope: body.scope ?? SCOPE_BY_TOOL[body.toolName] ?? 'lifecycle',
    risk: body.risk ?? (SCOPE_BY_TOOL[body.toolName] === 'file-read' ? 'low' : 'medium'),
    taskId: body.taskId ?? null,
    toolName: body.toolName,
    args: { tool_name: body.toolName, input: body.input, ...(body.toolUseId ? { tool_use_id: body.toolUseId } : {}) }
  }
}
