import type { Server, Socket } from 'socket.io'
import type { FastifyBaseLogger } from 'fastify'

/**
 * What a client may send. Clients of the feed only listen: after the handshake's CONNECT (with
 * its token, a few hundred bytes) a well-behaved client sends nothing but heartbeats, so the
 * budget is small and any event at all is abuse (no client event is known).
 */
export interface ClientPacketLimits {
  /** Messages (Socket.IO packets) a connection may send in a burst… */
  burst: number
  /** …refilled at this many per second. */
  perSecond: number
  /** The largest message accepted, in bytes (a CONNECT with a long token fits easily). */
  maxBytes: number
}

export const CLIENT_PACKET_LIMITS: ClientPacketLimits = { burst: 20, perSecond: 5, maxBytes: 8 * 1024 }

export type AbuseReason = 'rate' | 'size' | 'unknown event'

/**
 * Counts every message of every Engine.IO connection before Socket.IO decodes it, and ends the
 * connection at the first message over the size limit or over the rate: 60,000 events from 300
 * sockets once stalled the event loop for 3.6 s because every event was decoded and dispatched.
 * A connected socket is told ("io server disconnect", so its client does not reconnect by itself);
 * a connection that never completed the handshake is just closed.
 */
export function limitClientPackets(io: Server, logger: FastifyBaseLogger, limits: ClientPacketLimits = CLIENT_PACKET_LIMITS): void {
  const sockets = new WeakMap<object, Socket>()
  io.on('connection', (socket) => {
    sockets.set(socket.conn, socket)
    // No client event is handled, so every one is unknown.
    socket.onAny((event: unknown) => {
      cut(socket.conn as unknown as EngineConnection, 'unknown event', typeof event === 'string' ? event.slice(0, 64) : typeof event)
    })
  })

  const cut = (conn: EngineConnection, reason: AbuseReason, detail?: string) => {
    if (conn.quartetCut) return
    conn.quartetCut = true
    const socket = sockets.get(conn)
    logger.warn({ id: socket?.id ?? conn.id, reason, ...(detail ? { event: detail } : {}) }, 'feed: socket disconnected for abuse')
    if (socket) socket.disconnect(true)
    else conn.close(true)
    // A graceful close keeps reading (and decoding) what the client already sent: tens of
    // thousands of frames. Tearing the TCP connection down stops that at the current chunk.
    setImmediate(() => conn.transport?.socket?.terminate?.())
  }

  io.engine.on('connection', (conn: EngineConnection) => {
    let tokens = limits.burst
    let refilledAt = performance.now()
    conn.on('packet', (packet: { type: string; data?: unknown }) => {
      if (packet.type !== 'message' || conn.quartetCut) return
      const data = packet.data
      const bytes =
        typeof data === 'string' ? data.length : Buffer.isBuffer(data) ? data.length : data instanceof ArrayBuffer ? data.byteLength : 0
      if (bytes > limits.maxBytes) return cut(conn, 'size')
      const now = performance.now()
      tokens = Math.min(limits.burst, tokens + ((now - refilledAt) / 1000) * limits.perSecond)
      refilledAt = now
      if (tokens < 1) return cut(conn, 'rate')
      tokens -= 1
    })
  })
}

interface EngineConnection {
  id: string
  quartetCut?: boolean
  on(event: 'packet', listener: (packet: { type: string; data?: unknown }) => void): unknown
  close(discard?: boolean): void
  /** The WebSocket transport's `ws` socket (polling has none: its payloads are bounded by maxHttpBufferSize). */
  transport?: { socket?: { terminate?: () => void } }
}
