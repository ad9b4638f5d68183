/**
 * The chat's provider port: which configured provider agent answers, and a streaming call to it.
 * The non-streaming answer goes through the engine's provider client; the streaming one reads
 * the same two wire formats incrementally (OpenAI-compatible SSE deltas, Ollama NDJSON lines).
 */
import { chat, type ChatMessage, type ProviderAgent } from '../../engine/providers/client.js'
import type { EnginePlatform } from '../../engine/types.js'
import type { ProjectConfig } from '../../project/config-schema.js'

export type ResolvedChatProvider = { ok: true; name: string; agent: ProviderAgent } | { ok: false; reason: string }

const HOW_TO =
  'add an "openai-compatible" or "ollama" agent under "agents" in .quartet/config.json (base_url, model) and name it in "chat.agent"'

/** chat.agent, else the default agent when it is a provider, else the first provider agent. */
export function resolveChatProvider(config: ProjectConfig): ResolvedChatProvider {
  const providers = Object.entries(config.agents).filter((entry): entry is [string, ProviderAgent] => entry[1].kind !== 'command')
  const named = config.chat.agent
  if (named !== undefined) {
    const agent = config.agents[named]
    if (!agent) return { ok: false, reason: `chat.agent names "${named}", which is not a configured agent: ${HOW_TO}` }
    if (agent.kind === 'command') {
      return { ok: false, reason: `chat.agent "${named}" is a command agent; chat needs a provider agent: ${HOW_TO}` }
    }
    return { ok: true, name: named, agent }
  }
  const preferred = config.default_agent !== undefined ? providers.find(([name]) => name === config.default_agent) : undefined
  const chosen = preferred ?? providers[0]
  if (!chosen) return { ok: false, reason: `no provider agent is configured: ${HOW_TO}` }
  return { ok: true, name: chosen[0], agent: chosen[1] }
}

export interface ChatCallOptions {
  signal: AbortSignal
  env: Record<string, string | undefined>
}

/** One non-streaming answer (the engine's provider client). */
export async function completeChat(
  agent: ProviderAgent,
  messages: readonly ChatMessage[],
  options: ChatCallOptions,
  platform: EnginePlatform
): Promise<string> {
  const result = await chat(agent, messages, { signal: options.signal, env: options.env }, platform)
  return result.text
}

function streamUrl(agent: ProviderAgent): string {
  const base = agent.base_url.replace(/\/+$/, '')
  if (agent.kind === 'ollama') return `${base}/api/chat`
  return /\/v1$/.test(base) ? `${base}/chat/completions` : `${base}/v1/chat/completions`
}

function streamBody(agent: ProviderAgent, messages: readonly ChatMessage[]): Record<string, unknown> {
  if (agent.kind === 'ollama') {
    return {
      model: agent.model,
      messages,
      stream: true,
      ...(agent.temperature !== undefined ? { options: { temperature: agent.temperature } } : {})
    }
  }
  return {
    model: agent.model,
    messages,
    stream: true,
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
    ...(agent.max_tokens !== undefined ? { max_tokens: agent.max_tokens } : {})
  }
}

/** The text pieces of one wire line (an SSE `data:` line or an NDJSON line); `done` at the end marker. */
function piecesOf(agent: ProviderAgent, line: string): { text?: string; done?: boolean; error?: string } {
  const trimmed = line.trim()
  if (trimmed === '') return {}
  if (agent.kind === 'ollama') {
    const json = JSON.parse(trimmed) as { message?: { content?: unknown }; done?: unknown; error?: unknown }
    if (typeof json.error === 'string') return { error: json.error }
    return {
      ...(typeof json.message?.content === 'string' ? { text: json.message.content } : {}),
      ...(json.done === true ? { done: true } : {})
    }
  }
  if (!trimmed.startsWith('data:')) return {}
  const data = trimmed.slice(5).trim()
  if (data === '[DONE]') return { done: true }
  const json = JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[]; error?: { message?: unknown } }
  if (json.error) return { error: typeof json.error.message === 'string' ? json.error.message : 'provider error' }
  const text = json.choices?.[0]?.delta?.content
  return typeof text === 'string' ? { text } : {}
}

/** Streams the answer's text pieces; throws on an HTTP or wire error (the signal aborts the request). */
export async function* streamChat(
  agent: ProviderAgent,
  messages: readonly ChatMessage[],
  options: ChatCallOptions,
  platform: EnginePlatform
): AsyncGenerator<string> {
  const url = streamUrl(agent)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (agent.api_key_env) {
    const key = options.env[agent.api_key_env]
    if (!key) throw new Error(`environment variable ${agent.api_key_env} (api_key_env) is not set`)
    headers.authorization = `Bearer ${key}`
  }
  const timeout = AbortSignal.timeout((agent.request_timeout_seconds ?? 300) * 1000)
  const response = await platform.fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(streamBody(agent, messages)),
    signal: AbortSignal.any([options.signal, timeout])
  })
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '')
    throw new Error(`${url}: HTTP ${response.status}${text ? `: ${text.slice(0, 300)}` : ''}`)
  }
  const decoder = new TextDecoder()
  let buffered = ''
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true })
    let newline: number
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline)
      buffered = buffered.slice(newline + 1)
      const piece = piecesOf(agent, line)
      if (piece.error !== undefined) throw new Error(`${url}: ${piece.error}`)
      if (piece.text) yield piece.text
      if (piece.done) return
    }
  }
  const last = piecesOf(agent, buffered)
  if (last.error !== undefined) throw new Error(`${url}: ${last.error}`)
  if (last.text) yield last.text
}
