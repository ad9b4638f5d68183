// OpenAI APIs: Responses (POST …/responses — what Codex calls: streaming events, function_call and
// custom_tool_call items, usage in response.completed) and Chat Completions (POST …/chat/completions — what
// OpenAI-compatible clients such as Qwen Code and OpenCode call: streaming chunks with tool_calls, usage chunk).
import type http from 'node:http'
import { collectStrings, type ErrorTurn, type ModelRequest, type ToolCall, type Usage } from './scenario.js'
import { writeJson, writeSse, type ApiAdapter, type Route } from './server.js'

const ERROR_CODES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key',
  404: 'not_found',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  503: 'server_error'
}

function toolName(tool: any): string {
  return String(tool?.name ?? tool?.function?.name ?? tool?.type)
}

function understandResponses(body: any): ModelRequest {
  const input: any[] = Array.isArray(body?.input) ? body.input : typeof body?.input === 'string' ? [{ content: body.input }] : []
  const toolResults: string[] = []
  for (const item of input) {
    if (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output') {
      toolResults.push(typeof item.output === 'string' ? item.output : collectStrings(item.output).join('\n'))
    }
  }
  return {
    api: 'openai-responses',
    endpoint: 'responses',
    model: String(body?.model ?? ''),
    stream: body?.stream === true,
    tools: Array.isArray(body?.tools) ? body.tools.map(toolName) : [],
    texts: [...collectStrings(body?.instructions), ...collectStrings(input)],
    toolResults,
    json: body?.text?.format?.type === 'json_schema',
    body
  }
}

function understandChat(body: any): ModelRequest {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : []
  return {
    api: 'openai-chat',
    endpoint: 'chat/completions',
    model: String(body?.model ?? ''),
    stream: body?.stream === true,
    tools: Array.isArray(body?.tools) ? body.tools.map(toolName) : [],
    texts: collectStrings(messages),
    toolResults: messages.filter((m) => m?.role === 'tool').map((m) => collectStrings(m.content).join('\n')),
    json: body?.response_format?.type === 'json_schema' || body?.response_format?.type === 'json_object',
    body
  }
}

function responsesUsage(usage: Usage) {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    total_tokens: usage.input + usage.output
  }
}

function chatUsage(usage: Usage) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 }
  }
}

function responseItems(turn: { text?: string; tools?: ToolCall[] }, seq: number) {
  const items: any[] = []
  if (turn.text !== undefined) {
    items.push({
      type: 'message',
      id: `msg_scripted_${seq}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }]
    })
  }
  ;(turn.tools ?? []).forEach((tool, k) => {
    const callId = `call_${seq}_${k}`
    items.push(
      typeof tool.input === 'string'
        ? { type: 'custom_tool_call', id: `ctc_${seq}_${k}`, call_id: callId, name: tool.name, input: tool.input, status: 'completed' }
        : {
            type: 'function_call',
            id: `fc_${seq}_${k}`,
            call_id: callId,
            name: tool.name,
            arguments: JSON.stringify(tool.input),
            status: 'completed'
          }
    )
  })
  return items
}

function replyResponses(
  res: http.ServerResponse,
  request: ModelRequest,
  turn: { text?: string; tools?: ToolCall[] },
  usage: Usage,
  seq: number
) {
  const items = responseItems(turn, seq)
  const id = `resp_scripted_${seq}`
  const model = request.model || 'scripted-model'
  const response = (status: string, output: any[], withUsage: boolean) => ({
    id,
    object: 'response',
    created_at: 0,
    status,
    model,
    output,
    usage: withUsage ? responsesUsage(usage) : null
  })
  if (!request.stream) {
    writeJson(res, 200, response('completed', items, true))
    return
  }
  let n = 0
  const event = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, sequence_number: n++, ...data } })
  const events = [event('response.created', { response: response('in_progress', [], false) })]
  items.forEach((item, index) => {
    if (item.type === 'message') {
      events.push(event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } }))
      events.push(
        event('response.content_part.added', {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] }
        })
      )
      events.push(event('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: turn.text }))
      events.push(event('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text: turn.text }))
      events.push(event('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part: item.content[0] }))
    } else {
      events.push(event('response.output_item.added', { output_index: index, item }))
    }
    events.push(event('response.output_item.done', { output_index: index, item }))
  })
  events.push(event('response.completed', { response: response('completed', items, true) }))
  writeSse(res, events)
}

function replyChat(
  res: http.ServerResponse,
  request: ModelRequest,
  turn: { text?: string; tools?: ToolCall[] },
  usage: Usage,
  seq: number
) {
  const tools = (turn.tools ?? []).map((tool, k) => ({
    id: `call_${seq}_${k}`,
    type: 'function',
    function: { name: tool.name, arguments: typeof tool.input === 'string' ? tool.input : JSON.stringify(tool.input) }
  }))
  const finish = tools.length > 0 ? 'tool_calls' : 'stop'
  const id = `chatcmpl-scripted-${seq}`
  const model = request.model || 'scripted-model'
  if (!request.stream) {
    writeJson(res, 200, {
      id,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: turn.text ?? null, ...(tools.length > 0 ? { tool_calls: tools } : {}) },
          finish_reason: finish
        }
      ],
      usage: chatUsage(usage)
    })
    return
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    data: { id, object: 'chat.completion.chunk', created: 0, model, choices, ...extra }
  })
  const events = [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])]
  if (turn.text !== undefined) events.push(chunk([{ index: 0, delta: { content: turn.text }, finish_reason: null }]))
  tools.forEach((tool, index) => events.push(chunk([{ index: 0, delta: { tool_calls: [{ index, ...tool }] }, finish_reason: null }])))
  events.push(chunk([{ index: 0, delta: {}, finish_reason: finish }]))
  // The usage chunk (what stream_options.include_usage asks for): no choices, usage of the whole answer.
  events.push(chunk([], { usage: chatUsage(usage) }))
  writeSse(res, events, '[DONE]')
}

export const openaiApi: ApiAdapter = {
  name: 'OpenAI',
  route(method: string, url: URL, body: any): Route {
    if (method !== 'POST') return { kind: 'unknown' }
    if (url.pathname.endsWith('/responses')) return { kind: 'model', request: understandResponses(body) }
    if (url.pathname.endsWith('/chat/completions')) return { kind: 'model', request: understandChat(body) }
    return { kind: 'unknown' }
  },
  reply(res, request, turn, usage, seq) {
    if (request.api === 'openai-responses') replyResponses(res, request, turn, usage, seq)
    else replyChat(res, request, turn, usage, seq)
  },
  count(res, _request, tokens) {
    writeJson(res, 200, { input_tokens: tokens })
  },
  error(res, error: ErrorTurn['error']) {
    const code = error.type ?? ERROR_CODES[error.status] ?? 'server_error'
    writeJson(
      res,
      error.status,
      { error: { message: error.message, type: error.status >= 500 ? 'server_error' : code, param: null, code } },
      { 'x-request-id': 'req_scripted', ...error.headers }
    )
  }
}
