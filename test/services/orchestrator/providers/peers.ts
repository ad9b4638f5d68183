/**
 * Real peers for provider tests: the real Node platform (child processes, fetch, clock) and a
 * local HTTP server on port 0 that answers the scripted replies in order and records each request.
 */
import { spawn } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { EnginePlatform } from '../../../../src/services/orchestrator/engine/types.js'

export const nodePlatform: EnginePlatform = { spawn, fetch: globalThis.fetch, clock: () => new Date() }

export interface Reply {
  status?: number
  headers?: Record<string, string>
  /** An object is sent as JSON; a string as is. */
  body?: unknown
  /** Wait this long before answering (for timeouts). */
  delayMs?: number
  /** Drop the connection without answering. */
  destroy?: boolean
}

export interface RecordedRequest {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: any
}

export interface ScriptedServer {
  baseUrl: string
  requests: RecordedRequest[]
  /** Replies for the next requests, in order; when empty, `fallback` answers. */
  replies: Reply[]
  fallback: Reply
  close(): Promise<void>
}

export async function startScriptedServer(
  fallback: Reply = { status: 404, body: { error: 'no reply scripted' } }
): Promise<ScriptedServer> {
  const state: ScriptedServer = { baseUrl: '', requests: [], replies: [], fallback, close: async () => {} }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = text
      try {
        body = text === '' ? undefined : JSON.parse(text)
      } catch {
        // Keep the raw text.
      }
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      const reply = state.replies.shift() ?? state.fallback
      const send = (): void => {
        if (reply.destroy) {
          req.socket.destroy()
          return
        }
        const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {})
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers })
        res.end(payload)
      }
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref()
      else send()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return state
}

export function openAiAnswer(content: string, usage: Record<string, unknown> = { prompt_tokens: 10, completion_tokens: 5 }): Reply {
  return { body: { id: 'x', model: 'test-model', choices: [{ index: 0, message: { role: 'assistant', content } }], usage } }
}

export function ollamaAnswer(content: string, extra: Record<string, unknown> = {}): Reply {
  return { body: { model: 'llama3', message: { role: 'assistant', content }, done: true, prompt_eval_count: 12, eval_count: 7, ...extra } }
}
