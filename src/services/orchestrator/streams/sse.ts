import type { OutgoingHttpHeaders } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export interface SseFrame {
  id?: string | number
  event?: string
  /** A string is sent as is (one `data:` line per line); anything else as JSON. */
  data: unknown
}

export interface SseOptions {
  /** A `: ping` comment this often, so proxies do not time the stream out (default 15 s). */
  heartbeatMs?: number
  /** The reconnection delay announced to EventSource (default 3 s). */
  retryMs?: number
  /** Frames kept while the socket is not draining; past either cap the client is disconnected. */
  maxQueuedFrames?: number
  maxQueuedBytes?: number
}

export interface SseConnection {
  /** Queues one frame; false once the stream is closed (the caller should stop producing). */
  send(frame: SseFrame): boolean
  comment(text: string): boolean
  /** Ends the stream normally. */
  close(): void
  onClose(listener: () => void): void
  readonly closed: boolean
  /** Closed because the client fell further behind than the queue allows. */
  readonly dropped: boolean
  /** The socket is not draining: a producer that can wait (a file reader) should stop until onDrain. */
  readonly blocked: boolean
  /** Called once the socket drained everything queued (at once when it is not blocked). */
  onDrain(listener: () => void): void
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no'
}

function oneLine(value: string): string {
  return value.replace(/[\r\n\0]/g, '')
}

export function formatSseFrame(frame: SseFrame): string {
  let out = ''
  if (frame.id !== undefined) out += `id: ${oneLine(String(frame.id))}\n`
  if (frame.event !== undefined) out += `event: ${oneLine(frame.event)}\n`
  const text = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)
  for (const line of text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`
  return `${out}\n`
}

/**
 * Takes the response over as an event stream. Writes never wait: while the socket is not
 * draining, frames wait in a bounded queue, and a client that falls behind past it is
 * disconnected (it reconnects with Last-Event-ID and replays), so a slow reader can neither
 * stall the producer nor grow the server's memory.
 */
export function openSse(request: FastifyRequest, reply: FastifyReply, options: SseOptions = {}): SseConnection {
  const maxFrames = options.maxQueuedFrames ?? 1000
  const maxBytes = options.maxQueuedBytes ?? 1024 * 1024
  const raw = reply.raw
  const queue: string[] = []
  const listeners: (() => void)[] = []
  let drainListeners: (() => void)[] = []
  let queuedBytes = 0
  let blocked = false
  let closed = false
  let dropped = false

  // Headers already set by the gates (CORS, request id) travel with the stream.
  const headers: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value
  reply.hijack()
  raw.writeHead(200, { ...headers, ...SSE_HEADERS })

  function finish(): void {
    if (closed) return
    closed = true
    clearInterval(heartbeat)
    queue.length = 0
    queuedBytes = 0
    for (const listener of listeners.splice(0)) listener()
    for (const listener of drainListeners.splice(0)) listener()
    drainListeners = []
  }

  function write(chunk: string): boolean {
    if (closed) return false
    if (!blocked) {
      if (!raw.write(chunk)) blocked = true
      return true
    }
    queue.push(chunk)
    queuedBytes += Buffer.byteLength(chunk)
    if (queue.length > maxFrames || queuedBytes > maxBytes) {
      dropped = true
      request.log.warn({ queuedFrames: queue.length, queuedBytes }, 'event stream client fell behind; disconnected')
      finish()
      raw.destroy()
      return false
    }
    return true
  }

  raw.on('drain', () => {
    blocked = false
    while (queue.length > 0 && !blocked && !closed) {
      const chunk = queue.shift() as string
      queuedBytes -= Buffer.byteLength(chunk)
      if (!raw.write(chunk)) blocked = true
    }
    if (!blocked && queue.length === 0) for (const listener of drainListeners.splice(0)) listener()
  })
  raw.on('close', finish)
  raw.on('error', finish)

  const heartbeat = setInterval(() => write(': ping\n\n'), options.heartbeatMs ?? 15_000)
  heartbeat.unref()
  write(`retry: ${options.retryMs ?? 3000}\n\n`)

  return {
    send: (frame) => write(formatSseFrame(frame)),
    comment: (text) => write(`: ${oneLine(text)}\n\n`),
    close() {
      if (closed) return
      finish()
      raw.end()
    },
    onClose(listener) {
      if (closed) listener()
      else listeners.push(listener)
    },
    get closed() {
      return closed
    },
    get dropped() {
      return dropped
    },
    get blocked() {
      return blocked || queue.length > 0
    },
    onDrain(listener) {
      if (closed || (!blocked && queue.length === 0)) listener()
      else drainListeners.push(listener)
    }
  }
}

/** Ends every open stream when the server closes, so shutdown does not wait on them forever. */
export function closeStreamsOnShutdown(app: FastifyInstance): (connection: SseConnection) => void {
  const open = new Set<SseConnection>()
  app.addHook('preClose', (done) => {
    for (const connection of open) connection.close()
    done()
  })
  return (connection) => {
    open.add(connection)
    connection.onClose(() => open.delete(connection))
  }
}
