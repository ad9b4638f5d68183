/**
 * One WebSocket of the terminal transport. The token comes as the subprotocol `quartet.<token>`;
 * a refusal completes the handshake and closes with a code the client can act on (4401 token,
 * 4403 tenant, 4404 terminal disabled). Malformed frames are ignored; frames are handled in order.
 */
import type { FastifyRequest } from 'fastify'
import type { WebSocket } from 'ws'
import { AppError } from '../../../../core/errors/app-error.js'
import type { Principal } from '../../principal.js'
import type { ServerFrame, TerminalClient } from './attachments.js'
import type { TerminalService } from './terminal.service.js'
import { protocolToken, type TerminalToken } from './terminal-token.js'

export const CLOSE_UNAUTHORIZED = 4401
export const CLOSE_FORBIDDEN = 4403
export const CLOSE_DISABLED = 4404
const MAX_INPUT = 64 * 1024

interface SocketDeps {
  terminal: TerminalService
  token: TerminalToken
  principal: Principal
  audit(caller: Principal, action: string): Promise<void>
}

function offeredProtocols(request: FastifyRequest): string[] {
  const header = request.headers['sec-websocket-protocol']
  return (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((p) => p.trim())
}

function parseFrame(raw: string): Record<string, unknown> | null {
  try {
    const frame: unknown = JSON.parse(raw)
    return frame !== null && typeof frame === 'object' && !Array.isArray(frame) ? (frame as Record<string, unknown>) : null
  } catch {
    return null
  }
}

const dimension = (value: unknown, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= 2 && (value as number) <= max

export function handleTerminalSocket(socket: WebSocket, request: FastifyRequest, deps: SocketDeps): void {
  const token = protocolToken(offeredProtocols(request))
  if (token === null || !deps.token.matches(token)) {
    void deps.audit({ ...deps.principal, id: 'unauthenticated' }, 'auth.deny')
    socket.close(CLOSE_UNAUTHORIZED, 'unauthorized')
    return
  }
  const caller = deps.principal
  try {
    deps.terminal.admit(caller)
  } catch (error) {
    const status = error instanceof AppError ? error.statusCode : 500
    socket.close(status === 404 ? CLOSE_DISABLED : CLOSE_FORBIDDEN, status === 404 ? 'terminal disabled' : 'forbidden')
    return
  }
  const client: TerminalClient = {
    send(frame: ServerFrame) {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame))
    },
    bufferedAmount: () => socket.bufferedAmount,
    close: (code, reason) => socket.close(code, reason)
  }
  let queue: Promise<unknown> = Promise.resolve()
  socket.on('message', (raw, isBinary) => {
    if (isBinary) return
    const frame = parseFrame(String(raw))
    if (!frame) return
    queue = queue
      .then(async () => {
        if (frame.t === 'attach' && typeof frame.sessionId === 'string' && frame.sessionId.length <= 200) {
          const attached = await deps.terminal.attach(caller, client, frame.sessionId)
          if (!attached && socket.readyState === socket.OPEN) client.send({ t: 'error', error: 'session not found' })
        } else if (frame.t === 'input' && typeof frame.data === 'string' && frame.data.length <= MAX_INPUT) {
          deps.terminal.input(client, frame.data)
        } else if (frame.t === 'resize' && dimension(frame.cols, 1000) && dimension(frame.rows, 500)) {
          deps.terminal.resize(client, frame.cols, frame.rows)
        }
      })
      .catch(() => client.send({ t: 'error', error: 'the frame could not be handled' }))
  })
  socket.on('close', () => {
    void queue.then(() => deps.terminal.detach(client))
  })
}
