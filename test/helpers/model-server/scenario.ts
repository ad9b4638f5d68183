// The API-neutral part of the scripted model servers: what a test scripts (a scenario of turns), what the
// server records, and the usage it reports. Each API adapter (anthropic.ts, openai.ts, gemini.ts) renders a
// turn in its own wire format.

/** Token usage the server reports for one response, rendered into each API's own usage fields. */
export interface Usage {
  input: number
  output: number
  /** Prompt tokens served from a cache (Anthropic cache_read_input_tokens, OpenAI cached_tokens, Gemini cachedContentTokenCount). */
  cacheRead?: number
  /** Anthropic cache_creation_input_tokens (the other APIs have no such field). */
  cacheWrite?: number
  /** Reasoning tokens (OpenAI reasoning_tokens, Gemini thoughtsTokenCount); part of `output`. */
  reasoning?: number
}

/**
 * A tool call the model makes. `input` is the tool's arguments object; a string input is a freeform ("custom")
 * tool call where the API has one (OpenAI Responses `custom_tool_call`, e.g. Codex's `apply_patch`).
 */
export interface ToolCall {
  name: string
  input: Record<string, unknown> | string
}

/** One answer of the model: text and/or tool calls; the turn ends with tool use when there are tool calls. */
export interface ReplyTurn {
  text?: string
  tools?: ToolCall[]
  /** Defaults to {@link defaultUsage} of the turn's position. */
  usage?: Usage
  /** Only answer a request that passes this test; a request that fails it is answered as an unscripted request. */
  expect?: (request: ModelRequest) => boolean
  /** Answer only after this long: a model that takes its time, as real ones do. */
  delayMs?: number
}

/** An API error answered instead of a model response. */
export interface ErrorTurn {
  error: {
    status: number
    message: string
    /** The API's error type/status (e.g. Anthropic `overloaded_error`); a default per status when absent. */
    type?: string
    headers?: Record<string, string>
  }
  /** Not consumed: every later agent request gets the same error (so retries fail too). */
  sticky?: boolean
}

export type Turn = ReplyTurn | ErrorTurn

export interface Scenario {
  /** The agent loop's requests, answered in order. */
  turns: Turn[]
  /**
   * Requests that are not a step of the agent loop (session titles, classifiers, quota probes …): when `match`
   * accepts one, `reply` answers it without consuming a turn. Defaults to {@link defaultSide} (no tools offered).
   */
  side?: { match: (request: ModelRequest) => boolean; reply: (request: ModelRequest) => Turn }
}

/** A model request as the server understood it (API-neutral view of the body). */
export interface ModelRequest {
  api: ApiKind
  /** The API method called, from the path: `messages`, `responses`, `chat/completions`, `streamGenerateContent` … */
  endpoint: string
  model: string
  stream: boolean
  /** Names of the tools the request offers the model. */
  tools: string[]
  /** Every text in the request (system prompt, messages, tool results), in order. */
  texts: string[]
  /** The texts of the tool results the request carries (the outcome of the previous turn's tool calls). */
  toolResults: string[]
  /** The request asks for a JSON answer (structured output). */
  json: boolean
  body: any
}

export type ApiKind =
  'anthropic-messages' | 'anthropic-count-tokens' | 'openai-responses' | 'openai-chat' | 'gemini' | 'gemini-count-tokens'

export interface RecordedRequest {
  seq: number
  /** When the request arrived (performance.now() of the test process: compare with the CLI's spawn time). */
  receivedAt: number
  method: string
  /** Path and query, as requested. */
  url: string
  headers: Record<string, string | string[] | undefined>
  /** The body parsed as JSON (undefined when empty or not JSON: then `rawBody` holds it). */
  body: any
  rawBody: string
  /** How the request was understood; undefined for an unknown route. */
  request?: ModelRequest
  /** What answered it: a scenario turn (its index), a side reply, an unscripted/unknown error, or a count. */
  answer: { kind: 'turn'; index: number } | { kind: 'side' } | { kind: 'count' } | { kind: 'unscripted' } | { kind: 'unknown' }
  status: number
  /** The usage reported in the answer, if any. */
  usage?: Usage
}

/** The usage reported for the agent-loop turn at `index` when the scenario names none: distinct, predictable numbers. */
export function defaultUsage(index: number): Usage {
  return { input: 1000 + 100 * index, output: 20 + 5 * index }
}

/** Usage reported for a side request. */
export const SIDE_USAGE: Usage = { input: 10, output: 2 }

/** By default a request that offers the model no tools is a side request (titles, summaries, classifiers). */
export const defaultSide: NonNullable<Scenario['side']> = {
  match: (request) => request.tools.length === 0,
  reply: (request) => ({ text: request.json ? '{}' : 'ok', usage: SIDE_USAGE })
}

export function isError(turn: Turn): turn is ErrorTurn {
  return 'error' in turn
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: (a.cacheRead ?? 0) + (b.cacheRead ?? 0),
    cacheWrite: (a.cacheWrite ?? 0) + (b.cacheWrite ?? 0),
    reasoning: (a.reasoning ?? 0) + (b.reasoning ?? 0)
  }
}

export const ZERO_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }

/** Collects every string found under the given value (for texts of content blocks / parts of any shape). */
export function collectStrings(value: unknown, out: string[] = [], keys: ReadonlySet<string> = TEXT_KEYS): string[] {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out, keys)
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' ? keys.has(key) : true) collectStrings(item, out, keys)
    }
  }
  return out
}

const TEXT_KEYS = new Set(['text', 'content', 'output', 'system', 'instructions', 'result'])
