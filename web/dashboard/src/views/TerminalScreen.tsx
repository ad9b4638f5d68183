/** The xterm.js screen of one session over /api/terminal/ws (loaded lazily: xterm is most of the view's weight). */
import { Terminal } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'
import { useEffect, useRef, useState } from 'react'

type ServerFrame =
  | { t: 'attached' }
  | { t: 'output'; data: string }
  | { t: 'exit'; sessionId: string; exitCode: number; reason?: string }
  | { t: 'error'; error: string }
  | { t: 'guard_block'; patterns: { patternId: string; offset: number }[] }
  | { t: 'outbound_warn'; bytesUsed: number; bytesRemaining: number }
  | { t: 'outbound_kill'; bytesUsed: number }

const CLOSE_TEXT: Record<number, string> = {
  4401: 'the terminal token was refused',
  4403: 'this caller has no tenant (strict tenant mode)',
  4404: 'the terminal is disabled',
  4429: 'the daily outbound quota is used up'
}

export default function TerminalScreen({ sessionId, token }: { sessionId: string; token: string }) {
  const host = useRef<HTMLDivElement>(null)
  const [note, setNote] = useState('connecting…')

  useEffect(() => {
    const term = new Terminal({ cols: 100, rows: 24, convertEol: false, fontSize: 13 })
    term.open(host.current!)
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws'
    const socket = new WebSocket(`${scheme}://${window.location.host}/api/terminal/ws`, [`quartet.${token}`])
    const send = (frame: object) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame))
    }
    socket.onopen = () => {
      send({ t: 'attach', sessionId })
      send({ t: 'resize', cols: term.cols, rows: term.rows })
    }
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as ServerFrame
      if (frame.t === 'attached') setNote('attached')
      else if (frame.t === 'output') term.write(frame.data)
      else if (frame.t === 'exit') setNote(`the session ended (exit ${frame.exitCode}${frame.reason ? `, ${frame.reason}` : ''})`)
      else if (frame.t === 'error') setNote(frame.error)
      else if (frame.t === 'guard_block') setNote(`input blocked by the guard (${frame.patterns.map((p) => p.patternId).join(', ')})`)
      else if (frame.t === 'outbound_warn') setNote(`half of today's output quota used (${frame.bytesRemaining} bytes left)`)
      else if (frame.t === 'outbound_kill') setNote(`today's output quota is used up (${frame.bytesUsed} bytes)`)
    }
    socket.onclose = (event) =>
      setNote(`disconnected${CLOSE_TEXT[event.code] ? `: ${CLOSE_TEXT[event.code]}` : ''} (the session keeps running)`)
    const input = term.onData((data) => send({ t: 'input', data }))
    const resize = term.onResize(({ cols, rows }) => send({ t: 'resize', cols, rows }))
    term.focus()
    return () => {
      input.dispose()
      resize.dispose()
      // Closing the socket detaches; the session lives on.
      socket.close()
      term.dispose()
    }
  }, [sessionId, token])

  return (
    <>
      <p className="muted" role="status" data-testid="terminal-note">
        {note}
      </p>
      <div ref={host} className="terminal-screen" data-testid="terminal-screen" />
    </>
  )
}
