/**
 * Server-sent events over fetch rather than EventSource: the token goes in a header (never in the
 * URL), and reconnection is ours, with Last-Event-ID, exponential backoff and a heartbeat watchdog,
 * so a server that is down sees a few requests a minute at most, never a reconnect storm.
 */
import { authHeaders } from './token'

export interface SseFrame {
  id: string | undefined
  event: string
  data: string
}

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'unauthorized' | 'closed'

export interface StreamOptions {
  url: string
  /** Sent as Last-Event-ID on reconnects (the stream replays what was missed). */
  resumable: boolean
  onFrame(frame: SseFrame): void
  onState(state: StreamState): void
  /** Each time the stream is (re)opened: `reconnected` is false the first time. */
  onOpen?(reconnected: boolean): void
  /** The server pings every 15 s; silence this long means the connection is dead. */
  silenceMs?: number
  maxDelayMs?: number
}

export function parseFrames(buffer: string, emit: (frame: SseFrame) => void): string {
  const blocks = buffer.split(/\r?\n\r?\n/)
  const rest = blocks.pop() ?? ''
  for (const block of blocks) {
    let id: string | undefined
    let event = 'message'
    const data: string[] = []
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon === -1 ? line : line.slice(0, colon)
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'id') id = value
      else if (field === 'event') event = value
      else if (field === 'data') data.push(value)
    }
    if (data.length > 0) emit({ id, event, data: data.join('\n') })
  }
  return rest
}

export function openStream(options: StreamOptions): { close(): void; readonly lastEventId: string | undefined } {
  const silenceMs = options.silenceMs ?? 45_000
  const maxDelayMs = options.maxDelayMs ?? 30_000
  let lastEventId: string | undefined
  let closed = false
  let controller: AbortController | undefined
  let opened = false

  async function once(): Promise<'retry' | 'stop'> {
    controller = new AbortController()
    const abort = controller
    let watchdog = setTimeout(() => abort.abort(), silenceMs)
    const alive = () => {
      clearTimeout(watchdog)
      watchdog = setTimeout(() => abort.abort(), silenceMs)
    }
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', ...authHeaders() }
      if (options.resumable && lastEventId !== undefined) headers['last-event-id'] = lastEventId
      const response = await fetch(options.url, { headers, signal: abort.signal, cache: 'no-store' })
      if (response.status === 401 || response.status === 403) {
        options.onState('unauthorized')
        return 'stop'
      }
      if (!response.ok || !response.body) return 'retry'
      options.onState('open')
      options.onOpen?.(opened)
      opened = true
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return 'retry'
        alive()
        buffer = parseFrames(buffer + value, (frame) => {
          if (frame.id !== undefined) lastEventId = frame.id
          options.onFrame(frame)
        })
      }
    } catch {
      return 'retry'
    } finally {
      clearTimeout(watchdog)
    }
  }

  void (async () => {
    let failures = 0
    options.onState('connecting')
    while (!closed) {
      const started = Date.now()
      const outcome = await once()
      if (closed || outcome === 'stop') return
      // A stream that stayed up a while starts the backoff over; one that keeps failing waits longer each time.
      failures = Date.now() - started > 60_000 ? 0 : failures + 1
      options.onState('reconnecting')
      const delay = Math.min(maxDelayMs, 1000 * 2 ** Math.min(failures, 5)) * (0.5 + Math.random() / 2)
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  })()

  return {
    close() {
      closed = true
      controller?.abort()
      options.onState('closed')
    },
    get lastEventId() {
      return lastEventId
    }
  }
}
