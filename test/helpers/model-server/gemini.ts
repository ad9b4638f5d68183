// Gemini API (what Gemini CLI calls with an API key): POST …/models/<model>:streamGenerateContent (SSE with
// alt=sse, else a JSON array), :generateContent (JSON) and :countTokens; functionCall parts, usageMetadata.
import type http from 'node:http'
import { collectStrings, type ErrorTurn, type ModelRequest, type ToolCall, type Usage } from './scenario.js'
import { writeJson, writeSse, type ApiAdapter, type Route } from './server.js'

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE'
}

const PATH = /\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/

function understand(body: any, model: string, method: string, sse: boolean): ModelRequest {
  const contents: any[] = Array.isArray(body?.contents) ? body.contents : []
  const toolResults: string[] = []
  const texts: string[] = [...collectStrings(body?.systemInstruction)]
  for (const content of contents) {
    for (const part of Array.isArray(content?.parts) ? content.parts : []) {
      if (typeof part?.text === 'string') texts.push(part.text)
      if (part?.functionResponse) {
        const response = JSON.stringify(part.functionResponse.response ?? {})
        toolResults.push(response)
        texts.push(response)
      }
    }
  }
  const declarations = (Array.isArray(body?.tools) ? body.tools : []).flatMap((t: any) => t?.functionDeclarations ?? [])
  const config = body?.generationConfig ?? {}
  return {
    api: method === 'countTokens' ? 'gemini-count-tokens' : 'gemini',
    model,
    endpoint: method,
    stream: method === 'streamGenerateContent' && sse,
    tools: declarations.map((d: any) => String(d?.name)),
    texts,
    toolResults,
    json: config.responseMimeType === 'application/json' || config.responseSchema !== undefined || config.responseJsonSchema !== undefined,
    body
  }
}

function usageMetadata(usage: Usage) {
  return {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output - (usage.reasoning ?? 0),
    thoughtsTokenCount: usage.reasoning ?? 0,
    cachedContentTokenCount: usage.cacheRead ?? 0,
    totalTokenCount: usage.input + usage.output
  }
}

function parts(turn: { text?: string; tools?: ToolCall[] }, seq: number) {
  const out: any[] = []
  if (turn.text !== undefined) out.push({ text: turn.text })
  ;(turn.tools ?? []).forEach((tool, k) => out.push({ functionCall: { id: `fc_${seq}_${k}`, name: tool.name, args: tool.input } }))
  return out
}

export const geminiApi: ApiAdapter = {
  name: 'Gemini',
  route(method: string, url: URL, body: any): Route {
    const match = method === 'POST' ? PATH.exec(url.pathname) : null
    if (!match) return { kind: 'unknown' }
    const request = understand(body, decodeURIComponent(match[1] ?? ''), match[2] ?? '', url.searchParams.get('alt') === 'sse')
    return { kind: match[2] === 'countTokens' ? 'count' : 'model', request }
  },
  reply(res: http.ServerResponse, request: ModelRequest, turn, usage: Usage, seq: number) {
    const answer = {
      candidates: [{ content: { role: 'model', parts: parts(turn, seq) }, finishReason: 'STOP', index: 0 }],
      usageMetadata: usageMetadata(usage),
      modelVersion: request.model || 'scripted-model',
      responseId: `resp_scripted_${seq}`
    }
    if (request.stream) writeSse(res, [{ data: answer }])
    // streamGenerateContent without alt=sse answers a JSON array of responses.
    else if (request.endpoint === 'streamGenerateContent') writeJson(res, 200, [answer])
    else writeJson(res, 200, answer)
  },
  count(res: http.ServerResponse, _request: ModelRequest, tokens: number) {
    writeJson(res, 200, { totalTokens: tokens })
  },
  error(res: http.ServerResponse, error: ErrorTurn['error']) {
    writeJson(
      res,
      error.status,
      { error: { code: error.status, message: error.message, status: error.type ?? STATUS[error.status] ?? 'UNKNOWN' } },
      error.headers
    )
  }
}
