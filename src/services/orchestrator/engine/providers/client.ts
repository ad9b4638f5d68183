/**
 * One client for the two provider kinds: `openai-compatible` (POST …/v1/chat/completions) and
 * `ollama` (POST /api/chat). Both answer text plus provider-reported usage; failures are
 * ProviderErrors that say whether a retry could help.
 */
import type { ProviderAgentSchema } from '../../project/config-schema.js'
import type { EnginePlatform, Usage } from '../types.js'
import type { Static } from 'typebox'
import { ProviderError, fromFetchFailure, isTransientStatus, parseRetryAfter } from './errors.js'

export type ProviderAgent = Static<typeof ProviderAgentSchema>

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface ChatOptions {
  signal?: AbortSignal
  timeoutMs?: number
  /** Where `api_key_env` is looked up (default process.env). */
  env?: Record<string, string | undefined>
}

export interface ChatResult {
  text: string
  usage: Usage
}

const DEFAULT_TIMEOUT_MS = 300_000
const PROBE_TIMEOUT_MS = 3_000
const ERROR_BODY_CHARS = 300

export async function chat(
  agent: ProviderAgent,
  messages: readonly ChatMessage[],
  options: ChatOptions,
  platform: EnginePlatform
): Promise<ChatResult> {
  const url = agent.kind === 'ollama' ? joinUrl(agent.base_url, '/api/chat') : openAiUrl(agent.base_url, '/chat/completions')
  const body = agent.kind === 'ollama' ? ollamaBody(agent, messages) : openAiBody(agent, messages)
  const timeoutMs = options.timeoutMs ?? (agent.request_timeout_seconds ? agent.request_timeout_seconds * 1000 : DEFAULT_TIMEOUT_MS)
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...authHeader(agent, options.env ?? process.env)
  }
  const json = await requestJson(platform, url, { method: 'POST', headers, body: JSON.stringify(body) }, timeoutMs, options.signal)
  return agent.kind === 'ollama' ? readOllama(agent, json, url) : readOpenAi(agent, json, url)
}

/** A cheap reachability check for doctor and the auto planner: lists the provider's models. */
export async function probe(
  agent: ProviderAgent,
  platform: EnginePlatform,
  env: Record<string, string | undefined> = process.env
): Promise<{ ok: boolean; message: string }> {
  const url = agent.kind === 'ollama' ? joinUrl(agent.base_url, '/api/tags') : openAiUrl(agent.base_url, '/models')
  try {
    const json = await requestJson(
      platform,
      url,
      { method: 'GET', headers: { accept: 'application/json', ...authHeader(agent, env) } },
      PROBE_TIMEOUT_MS
    )
    const models = modelNames(agent, json)
    if (agent.kind === 'ollama' && !models.some((name) => name === agent.model || name === `${agent.model}:latest`)) {
      return { ok: false, message: `${url} answers, but model "${agent.model}" is not pulled (have: ${models.join(', ') || 'none'})` }
    }
    return { ok: true, message: `${url} answers (${models.length} model${models.length === 1 ? '' : 's'})` }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

async function requestJson(
  platform: EnginePlatform,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal
): Promise<unknown> {
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), timeoutMs)
  const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal
  try {
    const response = await platform.fetch(url, { ...init, signal: combined })
    const text = await response.text()
    if (!response.ok) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), platform.clock())
      throw new ProviderError(`${url}: HTTP ${response.status}${describeErrorBody(text)}`, {
        transient: isTransientStatus(response.status),
        code: 'http',
        status: response.status,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {})
      })
    }
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw new ProviderError(`${url}: answer is not JSON: ${text.slice(0, ERROR_BODY_CHARS)}`, {
        transient: false,
        code: 'malformed',
        status: response.status
      })
    }
  } catch (error) {
    throw fromFetchFailure(error, url, { timedOut: timeout.signal.aborted, aborted: signal?.aborted ?? false, timeoutMs })
  } finally {
    clearTimeout(timer)
  }
}

function describeErrorBody(text: string): string {
  if (text.trim() === '') return ''
  try {
    const parsed = JSON.parse(text) as { error?: unknown }
    const error = parsed.error
    if (typeof error === 'string') return `: ${error}`
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string')
      return `: ${(error as { message: string }).message}`
  } catch {
    // Not JSON: show the start of the body as it is.
  }
  return `: ${text.slice(0, ERROR_BODY_CHARS)}`
}

function authHeader(agent: ProviderAgent, env: Record<string, string | undefined>): Record<string, string> {
  if (!agent.api_key_env) return {}
  const key = env[agent.api_key_env]
  if (!key)
    throw new ProviderError(`environment variable ${agent.api_key_env} (api_key_env) is not set`, { transient: false, code: 'config' })
  return { authorization: `Bearer ${key}` }
}

function joinUrl(base: string, suffix: string): string {
  return base.replace(/\/+$/, '') + suffix
}

/** `{base}/v1{suffix}`, or `{base}{suffix}` when base_url already ends in /v1. */
function openAiUrl(base: string, suffix: string): string {
  const trimmed = base.replace(/\/+$/, '')
  return /\/v1$/.test(trimmed) ? trimmed + suffix : `${trimmed}/v1${suffix}`
}

function openAiBody(agent: ProviderAgent, messages: readonly ChatMessage[]): Record<string, unknown> {
  return {
    model: agent.model,
    messages,
    stream: false,
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
    ...(agent.max_tokens !== undefined ? { max_tokens: agent.max_tokens } : {})
  }
}

function ollamaBody(agent: ProviderAgent, messages: readonly ChatMessage[]): Record<string, unknown> {
  const options = {
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
    ...(agent.max_tokens !== undefined ? { num_predict: agent.max_tokens } : {})
  }
  return { model: agent.model, messages, stream: false, ...(Object.keys(options).length > 0 ? { options } : {}) }
}

function readOpenAi(agent: ProviderAgent, json: unknown, url: string): ChatResult {
  const root = asRecord(json)
  const choice = asRecord(Array.isArray(root.choices) ? root.choices[0] : undefined)
  const content = asRecord(choice.message).content
  if (typeof content !== 'string')
    throw new ProviderError(`${url}: answer has no choices[0].message.content`, { transient: false, code: 'malformed' })
  const usage = asRecord(root.usage)
  const inputTokens = count(usage.prompt_tokens)
  const outputTokens = count(usage.completion_tokens)
  const reported = money(usage.cost) ?? money(root.cost)
  return {
    text: content,
    usage: makeUsage(agent, inputTokens, outputTokens, reported, typeof root.model === 'string' ? root.model : agent.model)
  }
}

function readOllama(agent: ProviderAgent, json: unknown, url: string): ChatResult {
  const root = asRecord(json)
  const content = asRecord(root.message).content
  if (typeof content !== 'string') throw new ProviderError(`${url}: answer has no message.content`, { transient: false, code: 'malformed' })
  const reported = money(root.cost) ?? money(asRecord(root.usage).cost)
  return {
    text: content,
    usage: makeUsage(
      agent,
      count(root.prompt_eval_count),
      count(root.eval_count),
      reported,
      typeof root.model === 'string' ? root.model : agent.model
    )
  }
}

function makeUsage(agent: ProviderAgent, inputTokens: number, outputTokens: number, reportedCost: number | null, model: string): Usage {
  const price = agent.price_per_mtok
  const costUsd = reportedCost ?? (price ? (inputTokens * price.input + outputTokens * price.output) / 1_000_000 : null)
  return { inputTokens, outputTokens, costUsd, model }
}

function modelNames(agent: ProviderAgent, json: unknown): string[] {
  const list = agent.kind === 'ollama' ? asRecord(json).models : asRecord(json).data
  if (!Array.isArray(list)) return []
  return list
    .map((item) => {
      const entry = asRecord(item)
      const name = agent.kind === 'ollama' ? (entry.name ?? entry.model) : entry.id
      return typeof name === 'string' ? name : ''
    })
    .filter((name) => name !== '')
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0
}

function money(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) return Number(value)
  return null
}
