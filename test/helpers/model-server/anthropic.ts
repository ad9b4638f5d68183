// Anthropic Messages API (what Claude Code calls): POST /v1/messages (streaming SSE or JSON, text and tool_use
// blocks, usage in message_start/message_delta) and POST /v1/messages/count_tokens.
import type http from 'node:http'
import { collectStrings, type ErrorTurn, type ModelRequest, type ToolCall, type Usage } from './scenario.js'
import { writeJson, writeSse, type ApiAdapter, type Route } from './server.js'

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error'
}

function understand(body: any, count: boolean): ModelRequest {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : []
  const toolResults: string[] = []
  for (const message of messages) {
    if (!Array.isArray(message?.content)) continue
    for (const block of message.content) if (block?.type === 'tool_result') toolResults.push(collectStrings(block.content).join('\n'))
  }
  return {
    api: count ? 'anthropic-count-tokens' : 'anthropic-messages',
    endpoint: count ? 'messages/count_tokens' : 'messages',
    model: String(body?.model ?? ''),
    stream: body?.stream === true,
    tools: Array.isArray(body?.tools) ? body.tools.map((t: any) => String(t?.name)) : [],
    texts: [...collectStrings(body?.system), ...collectStrings(messages)],
    toolResults,
    json: body?.output_format?.type === 'json_schema',
    body
  }
}

function blocks(turn: { text?: string; tools?: ToolCall[] }, seq: number) {
  const out: any[] = []
  if (turn.text !== undefined) out.push({ type: 'text', text: turn.text })
  ;(turn.tools ?? []).forEach((tool, k) => out.push({ type: 'tool_use', id: `toolu_${seq}_${k}`, name: tool.name, input: tool.input }))
  return out
}

function usageFields(usage: Usage) {
  return {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite ?? 0,
    cache_read_input_tokens: usage.cacheRead ?? 0,
    output_tokens: usage.output
  }
}

export const anthropicApi: ApiAdapter = {
  name: 'Anthropic Messages',
  route(method: string, url: URL, body: any): Route {
    if (method !== 'POST') return { kind: 'unknown' }
    if (url.pathname.endsWith('/v1/messages')) return { kind: 'model', request: understand(body, false) }
    if (url.pathname.endsWith('/v1/messages/count_tokens')) return { kind: 'count', request: understand(body, true) }
    return { kind: 'unknown' }
  },
  reply(res: http.ServerResponse, request: ModelRequest, turn, usage: Usage, seq: number) {
    const content = blocks(turn, seq)
    const stopReason = (turn.tools ?? []).length > 0 ? 'tool_use' : 'end_turn'
    const id = `msg_scripted_${seq}`
    const model = request.model || 'scripted-model'
    if (!request.stream) {
      writeJson(res, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: usageFields(usage)
      })
      return
    }
    const events: { event: string; data: unknown }[] = []
    const start = { ...usageFields(usage), output_tokens: 1 }
    events.push({
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: start }
      }
    })
    content.forEach((block, index) => {
      if (block.type === 'text') {
        events.push({
          event: 'content_block_start',
          data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }
        })
        events.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }
        })
      } else {
        events.push({
          event: 'content_block_start',
          data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }
        })
        events.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }
        })
      }
      events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } })
    })
    events.push({
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: usageFields(usage) }
    })
    events.push({ event: 'message_stop', data: { type: 'message_stop' } })
    writeSse(res, events)
  },
  count(res: http.ServerResponse, _request: ModelRequest, tokens: number) {
    writeJson(res, 200, { input_tokens: tokens })
  },
  error(res: http.ServerResponse, error: ErrorTurn['error']) {
    writeJson(
      res,
      error.status,
      { type: 'error', error: { type: error.type ?? ERROR_TYPES[error.status] ?? 'api_error', message: error.message } },
      { 'request-id': 'req_scripted', ...error.headers }
    )
  }
}
