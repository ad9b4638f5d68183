/**
 * Chat about the project. Explicit commands (`status`, `help`, anything starting with `/`) are
 * answered here from live state and never reach a provider; anything else goes once to the
 * configured provider agent, grounded with the live status, the sprint's tasks and the pending
 * approvals. When no provider can answer, the reply says which and what to configure.
 */
import type { ChatMessage } from '../../engine/providers/client.js'
import type { EnginePlatform } from '../../engine/types.js'
import { orchestratorError } from '../../errors.js'
import type { Principal } from '../../principal.js'
import type { ProjectConfigSource } from '../../project/config-source.js'
import { completeChat, resolveChatProvider, streamChat } from './chat-provider.js'

export interface ChatLiveState {
  /** One line: `<sprint> — <phase> — d/t done, a active, b blocked`, or idle. */
  statusLine(): Promise<string>
  /** The current sprint's tasks, one line each. */
  tasks(): Promise<string[]>
  /** The caller's tenant's pending approval requests, one line each. */
  pendingApprovals(tenantId: string): Promise<string[]>
}

export type ChatFrame = { type: 'chunk'; text: string } | { type: 'done'; reply: string } | { type: 'error'; message: string }

export interface ChatServiceDeps {
  live: ChatLiveState
  config: ProjectConfigSource
  platform: EnginePlatform
  env: Record<string, string | undefined>
}

const MAX_CALLERS = 256
const MAX_GROUNDING_LINES = 40
export const UNAVAILABLE = 'Chat provider unavailable'

const HELP = [
  'Commands answered here, without a provider:',
  '  status (or /status)      the sprint in one line',
  '  /tasks                   the current sprint’s tasks',
  '  /approvals               pending approval requests',
  '  help (or /help)          this list',
  'Anything else is sent to the configured provider agent (chat.agent), with the live status, tasks and pending approvals.'
].join('\n')

function limited(lines: string[]): string[] {
  return lines.length > MAX_GROUNDING_LINES
    ? [...lines.slice(0, MAX_GROUNDING_LINES), `… ${lines.length - MAX_GROUNDING_LINES} more`]
    : lines
}

export function createChatService(deps: ChatServiceDeps) {
  // Per caller, bounded twice: messages per caller (chat.history_messages) and callers (oldest dropped).
  const histories = new Map<string, ChatMessage[]>()

  function historyOf(caller: Principal): ChatMessage[] {
    const key = `${caller.tenantId}\u0000${caller.id}`
    const found = histories.get(key)
    if (found) {
      histories.delete(key)
      histories.set(key, found)
      return found
    }
    const fresh: ChatMessage[] = []
    histories.set(key, fresh)
    if (histories.size > MAX_CALLERS) histories.delete(histories.keys().next().value as string)
    return fresh
  }

  function remember(caller: Principal, question: string, answer: string): void {
    const limit = deps.config.read().config.chat.history_messages
    const history = historyOf(caller)
    history.push({ role: 'user', content: question }, { role: 'assistant', content: answer })
    if (history.length > limit) history.splice(0, history.length - limit)
  }

  /** The local answer to an explicit command, or null for natural language. */
  async function builtIn(caller: Principal, message: string): Promise<string | null> {
    const command = message.trim().toLowerCase()
    if (command === 'status' || command === '/status') return `Sprint status: ${await deps.live.statusLine()}`
    if (command === 'help' || command === '/help' || command === '/') return HELP
    if (command === '/tasks') {
      const tasks = await deps.live.tasks()
      return tasks.length > 0 ? limited(tasks).join('\n') : 'No sprint has tasks yet.'
    }
    if (command === '/approvals') {
      const pending = await deps.live.pendingApprovals(caller.tenantId)
      return pending.length > 0 ? limited(pending).join('\n') : 'No approval request is pending.'
    }
    if (command.startsWith('/')) return `Unknown command ${command.split(/\s/)[0]}.\n${HELP}`
    return null
  }

  async function grounded(caller: Principal, message: string): Promise<ChatMessage[]> {
    const [status, tasks, approvals] = await Promise.all([
      deps.live.statusLine(),
      deps.live.tasks(),
      deps.live.pendingApprovals(caller.tenantId)
    ])
    const system = [
      'You answer questions about a software project that an orchestrator runs as sprints of tasks.',
      'Answer from the live state below; say so when it does not tell. You cannot change anything.',
      `Status: ${status}`,
      `Tasks of the current sprint:\n${tasks.length > 0 ? limited(tasks).join('\n') : '(none)'}`,
      `Pending approvals:\n${approvals.length > 0 ? limited(approvals).join('\n') : '(none)'}`
    ].join('\n\n')
    return [{ role: 'system', content: system }, ...historyOf(caller), { role: 'user', content: message }]
  }

  function unavailable(reason: string): string {
    return `${UNAVAILABLE}: ${reason}`
  }

  return {
    /** POST /api/chat: one reply; provider failures are an honest reply, not an error status. */
    async reply(caller: Principal, message: string, signal: AbortSignal): Promise<{ reply: string }> {
      if (message.trim() === '') throw orchestratorError('BAD_REQUEST', 'message is required')
      const local = await builtIn(caller, message)
      if (local !== null) return { reply: local }
      const provider = resolveChatProvider(deps.config.read().config)
      if (!provider.ok) return { reply: unavailable(provider.reason) }
      const messages = await grounded(caller, message)
      try {
        const text = await completeChat(provider.agent, messages, { signal, env: deps.env }, deps.platform)
        if (text.trim() === '') return { reply: unavailable(`${provider.name} answered with empty text`) }
        remember(caller, message, text)
        return { reply: text }
      } catch (error) {
        return { reply: unavailable(`${provider.name}: ${(error as Error).message}`) }
      }
    },

    /** GET /api/chat/stream: chunk frames, then exactly one done or one error. */
    async stream(caller: Principal, message: string, signal: AbortSignal, emit: (frame: ChatFrame) => void): Promise<void> {
      if (message.trim() === '') {
        emit({ type: 'error', message: 'message is required' })
        return
      }
      const local = await builtIn(caller, message)
      if (local !== null) {
        emit({ type: 'chunk', text: local })
        emit({ type: 'done', reply: local })
        return
      }
      const provider = resolveChatProvider(deps.config.read().config)
      if (!provider.ok) {
        emit({ type: 'error', message: unavailable(provider.reason) })
        return
      }
      const messages = await grounded(caller, message)
      let reply = ''
      try {
        for await (const text of streamChat(provider.agent, messages, { signal, env: deps.env }, deps.platform)) {
          reply += text
          emit({ type: 'chunk', text })
        }
      } catch (error) {
        if (signal.aborted) return
        emit({ type: 'error', message: unavailable(`${provider.name}: ${(error as Error).message}`) })
        return
      }
      if (signal.aborted) return
      if (reply.trim() === '') {
        emit({ type: 'error', message: unavailable(`${provider.name} answered with empty text`) })
        return
      }
      remember(caller, message, reply)
      emit({ type: 'done', reply })
    }
  }
}

export type ChatService = ReturnType<typeof createChatService>
