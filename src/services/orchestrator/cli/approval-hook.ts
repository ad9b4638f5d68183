/**
 * `quartet approval-hook`: a pre-tool hook for coding-agent CLIs (Claude Code, Codex and Qwen Code
 * `PreToolUse`, Gemini CLI `BeforeTool`). It reads the hook's JSON on stdin, records a pending
 * approval through the running orchestrator (with the task id when a run started the agent) and
 * blocks until a human decides or the request expires.
 *
 * Those CLIs block a call only on exit code 2 (stderr is the reason the model sees; Gemini CLI
 * blocks on those words, not on the code); any other failure lets the call run. So every path that
 * is not an explicit allow exits 2 with a reason: a deny, an expiry, an unreachable server,
 * unreadable input. An allow exits 0 and prints the PreToolUse
 * decision JSON, which Claude Code needs to run a tool its permission mode would otherwise refuse.
 */
import path from 'node:path'

export const HOOK_ALLOW = 0
export const HOOK_BLOCK = 2
const MAX_INPUT_BYTES = 1024 * 1024

export interface ApprovalHookOptions {
  project?: string
  /** Blocks the call (exit 2) when no decision came within this many seconds. */
  deadlineSeconds?: string
}

export interface HookCall {
  toolName: string
  input: Record<string, unknown>
  event: string
  toolUseId?: string
}

/** The tool call a hook's stdin describes, or why it cannot be read. */
export function parseHookInput(text: string): HookCall | { error: string } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { error: 'the hook input is not JSON' }
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { error: 'the hook input is not a JSON object' }
  const fields = json as Record<string, unknown>
  const toolName = fields.tool_name
  if (typeof toolName !== 'string' || toolName.length === 0 || toolName.length > 200) return { error: 'the hook input has no tool_name' }
  const rawInput = fields.tool_input ?? {}
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) return { error: 'tool_input is not an object' }
  const event = typeof fields.hook_event_name === 'string' ? fields.hook_event_name : 'PreToolUse'
  const toolUseId = typeof fields.tool_use_id === 'string' && fields.tool_use_id.length <= 200 ? fields.tool_use_id : undefined
  return { toolName, input: rawInput as Record<string, unknown>, event, ...(toolUseId ? { toolUseId } : {}) }
}

async function readStdin(stream: NodeJS.ReadableStream): Promise<string | { error: string }> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
    size += buffer.length
    if (size > MAX_INPUT_BYTES) return { error: `the hook input is larger than ${MAX_INPUT_BYTES} bytes` }
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function block(reason: string): number {
  process.stderr.write(`${reason}\n`)
  return HOOK_BLOCK
}

export async function approvalHookCommand(options: ApprovalHookOptions): Promise<number> {
  const projectRoot = path.resolve(options.project ?? (process.env.QUARTET_PROJECT || '.'))
  const deadline = options.deadlineSeconds === undefined ? undefined : Number(options.deadlineSeconds)
  if (deadline !== undefined && !(Number.isInteger(deadline) && deadline > 0))
    return block(`Quartet denied the call: --deadline-seconds must be a positive whole number (got ${options.deadlineSeconds}).`)
  const text = await readStdin(process.stdin)
  if (typeof text !== 'string') return block(`Quartet denied the call: ${text.error}.`)
  const call = parseHookInput(text)
  if ('error' in call) return block(`Quartet denied the call: ${call.error}.`)

  const [{ nodePlatform }, { createOrchestratorClient }, { askPermission }] = await Promise.all([
    import('../../../core/platform.js'),
    import('../mcp/orchestrator-client.js'),
    import('../mcp/permission-tool.js')
  ])
  const client = createOrchestratorClient({ projectRoot, env: process.env, fetch: nodePlatform().fetch })
  const taskId = process.env.QUARTET_TASK_ID || undefined
  const session = taskId ? `hook:task:${taskId}` : `hook-${process.pid}`
  const signal = deadline === undefined ? undefined : AbortSignal.timeout(deadline * 1000)
  let answer: Awaited<ReturnType<typeof askPermission>>
  try {
    const args = { tool_name: call.toolName, input: call.input, tool_use_id: call.toolUseId }
    answer = await askPermission(client, session, args, signal, taskId)
  } catch (error) {
    if (signal?.aborted) return block(`Quartet denied the call: no decision within ${deadline} s.`)
    throw error
  }
  if (answer.behavior === 'deny') return block(answer.message)
  process.stdout.write(
    `${JSON.stringify({
      hookSpecificOutput: { hookEventName: call.event, permissionDecision: 'allow', permissionDecisionReason: 'approved in Quartet' }
    })}\n`
  )
  return HOOK_ALLOW
}
