import fs from 'node:fs'
import WebSocket from 'ws'

export interface TerminalFrame {
  t: string
  [key: string]: unknown
}

export interface TerminalSocket {
  ws: WebSocket
  frames: TerminalFrame[]
  /** Every output frame's data so far, concatenated. */
  output(): string
  send(frame: Record<string, unknown>): void
  /** Resolves with the first frame (seen or future) that matches; fails after `ms`. */
  waitFor(match: (frame: TerminalFrame) => boolean, ms?: number, what?: string): Promise<TerminalFrame>
  /** Resolves once the concatenated output matches. */
  waitForOutput(pattern: RegExp | string | ((text: string) => boolean), ms?: number): Promise<string>
  closed: Promise<{ code: number; reason: string }>
  close(): Promise<void>
}

/** A real WebSocket client of /api/terminal/ws offering `quartet.<token>` as its subprotocol. */
export async function openTerminalSocket(baseUrl: string, token: string | null, protocols?: string[]): Promise<TerminalSocket> {
  const url = `${baseUrl.replace(/^http/, 'ws')}/api/terminal/ws`
  const ws = new WebSocket(url, protocols ?? (token === null ? [] : [`quartet.${token}`]))
  const frames: TerminalFrame[] = []
  const waiters = new Set<() => void>()
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() })
      for (const wake of waiters) wake()
    })
  })
  ws.on('message', (raw) => {
    frames.push(JSON.parse(String(raw)) as TerminalFrame)
    for (const wake of waiters) wake()
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const output = () =>
    frames
      .filter((f) => f.t === 'output')
      .map((f) => f.data as string)
      .join('')
  const wait = <T>(check: () => T | undefined, ms: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const attempt = () => {
        const value = check()
        if (value === undefined) return false
        cleanup()
        resolve(value)
        return true
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(`timed out waiting for ${what}; frames: ${JSON.stringify(frames).slice(-2000)}`))
      }, ms)
      const wake = () => void attempt()
      const cleanup = () => {
        clearTimeout(timer)
        waiters.delete(wake)
      }
      waiters.add(wake)
      attempt()
    })
  return {
    ws,
    frames,
    output,
    send: (frame) => ws.send(JSON.stringify(frame)),
    waitFor: (match, ms = 10_000, what = 'a frame') => wait(() => frames.find(match), ms, what),
    waitForOutput: (pattern, ms = 10_000) =>
      wait(
        () => {
          const text = output()
          const matched =
            typeof pattern === 'string' ? text.includes(pattern) : typeof pattern === 'function' ? pattern(text) : pattern.test(text)
          return matched ? text : undefined
        },
        ms,
        `output ${String(pattern)}`
      ),
    closed,
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return
      ws.close()
      await closed
    }
  }
}

/** true while a process with this pid exists (a zombie counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}
