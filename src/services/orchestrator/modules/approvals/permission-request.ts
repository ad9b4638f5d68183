import { orchestratorError } from '../../errors.js'
import type { ApprovalRequestInput } from './approvals.service.js'
import type { PermissionRequestType } from './approvals.schemas.js'

// Claude Code's tool names → approval scopes (file-read, shell-exec …); anything else is a lifecycle action.
const SCOPE_BY_TOOL: Record<string, string> = {
  Bash: 'shell-exec',
  Write: 'file-write',
  Edit: 'file-write',
  MultiEdit: 'file-write',
  NotebookEdit: 'file-write',
  Read: 'file-read',
  Glob: 'file-read',
  Grep: 'file-read',
  LS: 'file-read',
  WebFetch: 'network',
  WebSearch: 'network'
}

function firstString(input: Record<string, unknown>, keys: string[]): string | null {
  for (const key of keys) if (typeof input[key] === 'string' && input[key] !== '') return input[key]
  return null
}

// Masking walks the arguments recursively; real tool inputs nest a few levels.
const MAX_INPUT_DEPTH = 64

/** Whether a JSON value nests deeper than `max` objects/arrays (iterative: the value may be very deep). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (item === null || typeof item !== 'object') continue
    if (depth >= max) return true
    for (const child of Object.values(item)) stack.push([child, depth + 1])
  }
  return false
}

/** An agent's permission request as an approval request (the summary is masked by the service like the arguments). */
export function describePermissionRequest(body: PermissionRequestType): ApprovalRequestInput {
  if (nestsDeeperThan(body.input, MAX_INPUT_DEPTH))
    throw orchestratorError('VALIDATION_FAILED', `body/input must not nest deeper than ${MAX_INPUT_DEPTH} levels`)
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
