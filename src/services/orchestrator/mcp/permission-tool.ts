/**
 * The permission bridge: Claude Code's `--permission-prompt-tool` calls this tool with
 * {tool_name, input, tool_use_id?}; it records a pending approval through the orchestrator and
 * blocks until a human decides (or the request expires), then answers Claude Code's contract:
 * one text item holding {"behavior":"allow","updatedInput":{…}} or {"behavior":"deny","message":"…"}.
 */
import { OrchestratorUnavailable, type OrchestratorClient } from './orchestrator-client.js'

const WAIT_SECONDS = 25

export interface PermissionPromptInput {
  tool_name: string
  input: Record<string, unknown>
  tool_use_id?: string | undefined
}

export type PermissionAnswer = { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string }

interface EntryJson {
  category: string
  effect: 'allow' | 'deny' | null
  request: { id: string }
  decision: { decision: string; decidedBy: string; reason: string } | null
}

function errorOf(json: unknown): string {
  return json && typeof json === 'object' && 'error' in json ? String((json as { error: unknown }).error) : JSON.stringify(json)
}

export async function askPermission(
  client: OrchestratorClient,
  session: string,
  args: PermissionPromptInput,
  signal?: AbortSignal,
  taskId?: string
): Promise<PermissionAnswer> {
  try {
    const created = await client.post(
      '/api/approvals/requests',
      {
        toolName: args.tool_name,
        input: args.input,
        ...(args.tool_use_id ? { toolUseId: args.tool_use_id } : {}),
        ...(taskId ? { taskId } : {}),
        requester: session
      },
      signal
    )
    if (created.status !== 201)
      return {
        behavior: 'deny',
        message: `Quartet could not record the permission request (${created.status}: ${errorOf(created.json)}); denied.`
      }
    let entry = created.json as EntryJson
    const id = entry.request.id
    while (entry.effect === null) {
      const waited = await client.get(`/api/approvals/${encodeURIComponent(id)}/wait?timeout=${WAIT_SECONDS}`, signal)
      if (waited.status !== 200)
        return { behavior: 'deny', message: `Quartet lost approval ${id} (${waited.status}: ${errorOf(waited.json)}); denied.` }
      entry = waited.json as EntryJson
    }
    if (entry.effect === 'allow') return { behavior: 'allow', updatedInput: args.input }
    const decision = entry.decision
    const how =
      entry.category === 'expired'
        ? 'expired without a decision'
        : `was ${decision?.decision ?? 'denied'} by ${decision?.decidedBy ?? 'a human'}`
    return { behavior: 'deny', message: `Quartet approval ${id} ${how}${decision?.reason ? `: ${decision.reason}` : '.'}` }
  } catch (error) {
    if (signal?.aborted) throw error
    if (error instanceof OrchestratorUnavailable) return { behavior: 'deny', message: `Denied: ${error.message}.` }
    // Whatever went wrong, an unanswered permission prompt must never become an allow.
    return {
      behavior: 'deny',
      message: `Denied: the permission request failed (${error instanceof Error ? error.message : String(error)}).`
    }
  }
}
