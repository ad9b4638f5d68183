// The HTTP part of the scripted model servers: one server on 127.0.0.1:0 per API, which records every request,
// answers the agent loop's requests with the scenario's turns in order, side requests with the side reply, and
// anything else with an API-shaped error (recorded, so a test can see what a CLI asked for).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import {
  addUsage,
  defaultSide,
  defaultUsage,
  isError,
  ZERO_USAGE,
  type ErrorTurn,
  type ModelRequest,
  type RecordedRequest,
  type Scenario,
  type ToolCall,
  type Turn,
  type Usage
} from './scenario.js'

/** What an API adapter decides about a request: a model call, a token count, or an unknown route. */
export type Route = { kind: 'model'; request: ModelRequest } | { kind: 'count'; request: ModelRequest } | { kind: 'unknown' }

/** One API's wire format. */
export interface ApiAdapter {
  name: string
  route(method: string, url: URL, body: any): Route
  /** Writes a model answer (text and/or tool calls) for the request: SSE when it asked for a stream, JSON otherwise. */
  reply(res: http.ServerResponse, request: ModelRequest, turn: { text?: string; tools?: ToolCall[] }, usage: Usage, seq: number): void
  /** Writes a token count answer. */
  count(res: http.ServerResponse, request: ModelRequest, tokens: number): void
  /** Writes an API-shaped error. */
  error(res: http.ServerResponse, error: ErrorTurn['error']): void
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>` (no path: each CLI's setting names the path prefix it needs). */
  url: string
  port: number
  /** Every request received, in order. */
  requests: RecordedRequest[]
  /** The requests that were answered with a scenario turn (the agent loop). */
  turnRequests(): RecordedRequest[]
  /** Requests to routes the server does not know, and agent requests after the scenario ran out. */
  unanswered(): RecordedRequest[]
  /** How many scenario turns have been consumed. */
  turnsUsed(): number
  /** The sum of the usage reported in every answer (turns and side requests). */
  usageReported(): Required<Usage>
  /** The sum of the usage reported for scenario turns only. */
  turnUsageReported(): Required<Usage>
  close(): Promise<void>
}

/** Starts a scripted model server for one API on 127.0.0.1 with a free port. */
export async function startServer(adapter: ApiAdapter, scenario: Scenario): Promise<ModelServer> {
  const requests: RecordedRequest[] = []
  const side = scenario.side ?? defaultSide
  let next = 0
  let seq = 0

  const server = http.createServer((req, res) => {
    const receivedAt = performance.now()
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = decode(Buffer.concat(chunks), req.headers['content-encoding'])
      let body: any
      try {
        body = raw.length > 0 ? JSON.parse(raw) : undefined
      } catch {
        body = undefined
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const record: RecordedRequest = {
        seq: ++seq,
        receivedAt,
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: { ...req.headers },
        body,
        rawBody: raw,
        answer: { kind: 'unknown' },
        status: 0
      }
      requests.push(record)
      const route = adapter.route(record.method, url, body)
      if (route.kind === 'unknown') {
        record.status = 404
        adapter.error(res, { status: 404, message: `scripted ${adapter.name} server: no route ${record.method} ${url.pathname}` })
        return
      }
      record.request = route.request
      if (route.kind === 'count') {
        record.answer = { kind: 'count' }
        record.status = 200
        adapter.count(res, route.request, Math.max(1, Math.ceil(raw.length / 4)))
        return
      }
      let turn: Turn | undefined
      let usage: Usage | undefined
      if (side.match(route.request)) {
        turn = side.reply(route.request)
        record.answer = { kind: 'side' }
      } else {
        const candidate = scenario.turns[next]
        if (candidate && (isError(candidate) || !candidate.expect || candidate.expect(route.request))) {
          turn = candidate
          record.answer = { kind: 'turn', index: next }
          if (!(isError(candidate) && candidate.sticky)) next += 1
          usage = defaultUsage(record.answer.index)
        } else {
          record.answer = { kind: 'unscripted' }
          record.status = 400
          const why = candidate ? `turn ${next} did not expect this request` : `the scenario has no turn ${next}`
          adapter.error(res, { status: 400, message: `scripted ${adapter.name} server: ${why}` })
          return
        }
      }
      if (isError(turn)) {
        record.status = turn.error.status
        adapter.error(res, turn.error)
        return
      }
      record.usage = turn.usage ?? usage ?? { input: 10, output: 2 }
      record.status = 200
      const reply = () => adapter.reply(res, route.request!, { text: turn.text, tools: turn.tools }, record.usage!, record.seq)
      if (turn.delayMs) setTimeout(reply, turn.delayMs)
      else reply()
    })
  })
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  const sum = (list: RecordedRequest[]) =>
    list.reduce((total, r) => (r.usage ? addUsage(total, r.usage) : total), ZERO_USAGE) as Required<Usage>
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    turnRequests: () => requests.filter((r) => r.answer.kind === 'turn'),
    unanswered: () => requests.filter((r) => r.answer.kind === 'unknown' || r.answer.kind === 'unscripted'),
    turnsUsed: () => next,
    usageReported: () => sum(requests),
    turnUsageReported: () => sum(requests.filter((r) => r.answer.kind === 'turn')),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

function decode(buffer: Buffer, encoding: string | undefined): string {
  try {
    if (encoding === 'gzip') return zlib.gunzipSync(buffer).toString('utf8')
    if (encoding === 'deflate') return zlib.inflateSync(buffer).toString('utf8')
    if (encoding === 'br') return zlib.brotliDecompressSync(buffer).toString('utf8')
  } catch {
    // Recorded as received.
  }
  return buffer.toString('utf8')
}

/** Writes a server-sent-events response: `event:` lines when an event has a name, `data:` with its JSON. */
export function writeSse(res: http.ServerResponse, events: { event?: string; data: unknown }[], done?: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  let out = ''
  for (const { event, data } of events) {
    if (event) out += `event: ${event}\n`
    out += `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
  }
  if (done) out += `data: ${done}\n\n`
  res.end(out)
}

export function writeJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}
