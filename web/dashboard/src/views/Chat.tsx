import { useRef, useState, type FormEvent } from 'react'
import { api, unwrap } from '../api/client'
import { authHeaders } from '../api/token'
import { Empty, Section } from '../ui'

interface Line {
  id: number
  who: 'you' | 'quartet'
  text: string
  state: 'streaming' | 'done' | 'error'
}

type ChatFrame = { type: 'chunk'; text: string } | { type: 'done'; reply: string } | { type: 'error'; message: string }

/** Reads GET /api/chat/stream: data frames, chunks then exactly one done or error. */
async function streamReply(message: string, signal: AbortSignal, onFrame: (frame: ChatFrame) => void): Promise<void> {
  const response = await fetch(`/api/chat/stream?message=${encodeURIComponent(message)}`, {
    headers: { ...authHeaders(), accept: 'text/event-stream' },
    cache: 'no-store',
    signal
  })
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`)
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += value
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n')
      if (data) onFrame(JSON.parse(data) as ChatFrame)
    }
  }
}

/**
 * Chat with the project: `status`, `help` and `/…` are answered by the server from live state,
 * anything else by the configured provider, streamed. When the stream cannot be opened the same
 * question goes once through POST /api/chat.
 */
export function Chat() {
  const [lines, setLines] = useState<Line[]>([])
  const [message, setMessage] = useState('')
  const [busy, setBusy] = useState(false)
  const nextId = useRef(1)
  const abort = useRef<AbortController | null>(null)

  const update = (id: number, change: (line: Line) => Line) => setLines((list) => list.map((l) => (l.id === id ? change(l) : l)))

  const ask = async (event: FormEvent) => {
    event.preventDefault()
    const text = message.trim()
    if (!text || busy) return
    setMessage('')
    setBusy(true)
    const answerId = nextId.current + 1
    nextId.current += 2
    setLines((list) => [
      ...list,
      { id: answerId - 1, who: 'you', text, state: 'done' },
      { id: answerId, who: 'quartet', text: '', state: 'streaming' }
    ])
    abort.current = new AbortController()
    try {
      await streamReply(text, abort.current.signal, (frame) => {
        if (frame.type === 'chunk') update(answerId, (l) => ({ ...l, text: l.text + frame.text }))
        if (frame.type === 'done') update(answerId, (l) => ({ ...l, text: frame.reply, state: 'done' }))
        if (frame.type === 'error') update(answerId, (l) => ({ ...l, text: frame.message, state: 'error' }))
      })
    } catch (error) {
      if ((error as Error).name === 'AbortError') {
        update(answerId, (l) => ({ ...l, text: `${l.text} [stopped]`, state: 'error' }))
      } else {
        try {
          const { reply } = unwrap(await api.POST('/api/chat', { body: { message: text } }))
          update(answerId, (l) => ({ ...l, text: reply, state: 'done' }))
        } catch (fallback) {
          update(answerId, (l) => ({ ...l, text: `Could not ask: ${(fallback as Error).message}`, state: 'error' }))
        }
      }
    } finally {
      setBusy(false)
      abort.current = null
    }
  }

  return (
    <Section
      title="Chat"
      actions={
        busy ? (
          <button type="button" onClick={() => abort.current?.abort()}>
            Stop
          </button>
        ) : null
      }
    >
      {lines.length === 0 ? (
        <Empty>Ask about the project. Try “status” or “help”: they are answered here from live state, without a provider.</Empty>
      ) : (
        <ol className="chat-log" data-testid="chat-log" aria-live="polite">
          {lines.map((l) => (
            <li key={l.id} data-who={l.who} data-state={l.state}>
              <span className="who">{l.who === 'you' ? 'You' : 'Quartet'}</span>
              {l.text || '…'}
            </li>
          ))}
        </ol>
      )}
      <form className="chat-form" onSubmit={(event) => void ask(event)}>
        <label htmlFor="chat-message" className="sr-only">
          Message
        </label>
        <input id="chat-message" value={message} onChange={(e) => setMessage(e.target.value)} placeholder="status" autoComplete="off" />
        <button type="submit" disabled={busy || !message.trim()}>
          Send
        </button>
      </form>
    </Section>
  )
}
