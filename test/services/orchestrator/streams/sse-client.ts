import http from 'node:http'

export interface ReceivedFrame {
  id?: string
  event?: string
  data: string
}

/** A minimal EventSource over node:http that keeps every frame and comment it receives. */
export interface SseClient {
  status: number
  headers: http.IncomingHttpHeaders
  frames: ReceivedFrame[]
  comments: string[]
  retry: number | undefined
  ended: boolean
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>
  close(): void
}

export function connectSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      response.setEncoding('utf8')
      let buffer = ''
      const waiters = new Set<() => void>()
      const client: SseClient = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        frames: [],
        comments: [],
        retry: undefined,
        ended: false,
        waitFor(predicate, timeoutMs = 10_000) {
          return new Promise<void>((done, fail) => {
            if (predicate()) return done()
            const timer = setTimeout(() => {
              waiters.delete(check)
              fail(new Error(`timed out; ${client.frames.length} frames received`))
            }, timeoutMs)
            const check = () => {
              if (!predicate()) return
              clearTimeout(timer)
              waiters.delete(check)
              done()
            }
            waiters.add(check)
          })
        },
        close() {
          request.destroy()
        }
      }
      const notify = () => {
        for (const waiter of [...waiters]) waiter()
      }
      response.on('data', (chunk: string) => {
        buffer += chunk
        let end: number
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const frame: ReceivedFrame = { data: '' }
          const data: string[] = []
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) client.comments.push(line.slice(1).trim())
            else if (line.startsWith('retry: ')) client.retry = Number(line.slice(7))
            else if (line.startsWith('id: ')) frame.id = line.slice(4)
            else if (line.startsWith('event: ')) frame.event = line.slice(7)
            else if (line.startsWith('data: ')) data.push(line.slice(6))
          }
          if (data.length > 0) {
            frame.data = data.join('\n')
            client.frames.push(frame)
          }
        }
        notify()
      })
      response.on('close', () => {
        client.ended = true
        notify()
      })
      response.on('error', () => undefined)
      resolve(client)
    })
    request.on('error', reject)
  })
}
