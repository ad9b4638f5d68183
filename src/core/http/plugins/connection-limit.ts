import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { rawErrorResponse, type ErrorFormatter } from './error-shape.js'

export interface ConnectionCapOptions {
  /** Open connections one client address may hold; 0 disables the cap. */
  maxPerClient: number
  format: ErrorFormatter
}

/** How long a refused socket may take to read its answer before it is destroyed. */
const REFUSED_GRACE_MS = 1000

/**
 * Caps the connections one client address holds open, so a single client (stalled uploads,
 * idle sockets) cannot use up the process's file descriptors. Node's HTTP parser is attached only
 * to admitted sockets: a refused one costs no parser and runs no route — it gets a 429 in the
 * service's shape and is closed within a second.
 */
export function capConnectionsPerClient(server: Server, options: ConnectionCapOptions): void {
  if (!(options.maxPerClient > 0)) return
  const open = new Map<string, number>()
  // Node's own listener sets the HTTP parser up; it runs only for sockets admitted here.
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[]
  server.removeAllListeners('connection')
  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket)
    const count = open.get(address) ?? 0
    if (count >= options.maxPerClient) {
      refuse(socket, options.format)
      return
    }
    open.set(address, count + 1)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left > 0) open.set(address, left)
      else open.delete(address)
    })
    for (const listener of httpListeners) listener.call(server, socket)
  })
}

function clientAddress(socket: Socket): string {
  const address = socket.remoteAddress ?? 'unknown'
  return address.startsWith('::ffff:') ? address.slice(7) : address
}

function refuse(socket: Socket, format: ErrorFormatter): void {
  socket.on('error', () => socket.destroy())
  // Destroying before the client has sent its request and read the answer would reset the
  // connection and lose the answer; so the request is read and discarded until the client
  // closes, for one second at most.
  socket.setTimeout(REFUSED_GRACE_MS, () => socket.destroy())
  socket.on('end', () => socket.destroy())
  socket.resume()
  socket.end(
    rawErrorResponse(format, {
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Too many open connections from this address; close some and retry.',
      headers: { 'retry-after': '1' }
    })
  )
}
