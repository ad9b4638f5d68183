/**
 * The terminal dashboard's view of a running orchestrator: the same HTTP API and /api/events
 * stream as the web dashboard. The stream reconnects with Last-Event-ID and an exponential
 * backoff, and a silent connection (no heartbeat for 45 s) is dropped and reopened.
 */

export interface DashboardTarget {
  url: string
  token: string | null
}

export interface Frame {
  id: string | undefined
  event: string
  data: string
}

export type LinkState = 'connecting' | 'open' | 'reconnecting' | 'refused' | 'closed'

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

export function parseFrames(buffer: string, emit: (frame: Frame) => void): string {
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

export function createDashboardClient(target: DashboardTarget) {
  const base = target.url.replace(/\/+$/, '')
  const headers = (extra: Record<string, string> = {}) => ({
    ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
    ...extra
  })

  async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: headers({ accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extra }),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(15_000)
    })
    const text = await response.text()
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    if (!response.ok) throw new HttpError(response.status, (json as { error?: string } | undefined)?.error ?? `HTTP ${response.status}`)
    return json as T
  }

  /** Follows an SSE route until closed; `resumable` streams resend Last-Event-ID on every reconnect. */
  function stream(
    path: string,
    options: { resumable: boolean; onFrame(frame: Frame): void; onState(state: LinkState): void; onOpen?(reconnected: boolean): void }
  ): { close(): void } {
    let closed = false
    let lastEventId: string | undefined
    let controller: AbortController | undefined
    let opened = false

    async function once(): Promise<'retry' | 'stop'> {
      const abort = (controller = new AbortController())
      let watchdog = setTimeout(() => abort.abort(), 45_000)
      try {
        const extra: Record<string, string> = { accept: 'text/event-stream' }
        if (options.resumable && lastEventId !== undefined) extra['last-event-id'] = lastEventId
        const response = await fetch(`${base}${path}`, { headers: headers(extra), signal: abort.signal })
        if (response.status === 401 || response.status === 403) {
          options.onState('refused')
          return 'stop'
        }
        if (!response.ok || !response.body) return 'retry'
        options.onState('open')
        options.onOpen?.(opened)
        opened = true
        const decoder = new TextDecoder()
        let buffer = ''
        for await (const chunk of response.body) {
          clearTimeout(watchdog)
          watchdog = setTimeout(() => abort.abort(), 45_000)
          buffer = parseFrames(buffer + decoder.decode(chunk as Uint8Array, { stream: true }), (frame) => {
            if (frame.id !== undefined) lastEventId = frame.id
            options.onFrame(frame)
          })
        }
        return 'retry'
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
        failures = Date.now() - started > 60_000 ? 0 : failures + 1
        options.onState('reconnecting')
        const delay = Math.min(30_000, 1000 * 2 ** Math.min(failures, 5)) * (0.5 + Math.random() / 2)
        await new Promise((resolve) => setTimeout(resolve, delay))
      }
    })()

    return {
      close() {
        closed = true
        controller?.abort()
      }
    }
  }

  return { base, request, stream }
}

export type DashboardClient = ReturnType<typeof createDashboardClient>
