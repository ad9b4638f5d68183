/**
 * The terminal's part of the HTTP server: mints the terminal token for this server's lifetime,
 * gives the access gate its check, registers the WebSocket plugin and the routes, and runs the
 * idle reaper and the backpressure tick while the server is up.
 */
import websocket from '@fastify/websocket'
import type { FastifyBaseLogger } from 'fastify'
import type { App } from '../../../../core/http/server.js'
import type { Orchestrator } from '../../compose.js'
import type { Principal } from '../../principal.js'
import { terminalRoutes } from './terminal.routes.js'
import { mintTerminalToken, protocolToken, SOCKET_PROTOCOL_PREFIX, terminalPrincipal } from './terminal-token.js'

const TICK_MS = 50

export function registerTerminal(options: { orchestrator: Orchestrator; logger: FastifyBaseLogger }) {
  const { orchestrator: o, logger } = options
  const token = mintTerminalToken(o.projectRoot)
  const principal = terminalPrincipal(token.fingerprint)
  logger.info({ fingerprint: token.fingerprint, file: token.file }, 'orchestrator: terminal token minted')
  const enabled = () => o.config.read().config.terminal.enabled
  const timers: NodeJS.Timeout[] = []
  let closed = false

  const audit = async (caller: Principal, action: string) => {
    await o.terminal.audit(caller, action)
  }

  function scheduleReap(): void {
    if (closed) return
    const timer = setTimeout(() => {
      o.terminal
        .reap()
        .catch((error: unknown) => logger.warn({ err: error }, 'orchestrator: terminal reaper failed'))
        .finally(scheduleReap)
    }, o.terminal.reapIntervalMs())
    timer.unref()
    timers[0] = timer
  }

  return {
    gate: { matches: (presented: string) => token.matches(presented), principal },
    enabled,
    async register(app: App): Promise<void> {
      await app.register(websocket, {
        options: {
          maxPayload: 256 * 1024,
          // The server names the protocol the token came in, as WebSocket clients that offered protocols require.
          handleProtocols: (protocols) => {
            const offered = protocolToken(protocols)
            return offered === null ? false : `${SOCKET_PROTOCOL_PREFIX}${offered}`
          }
        }
      })
      await app.register(terminalRoutes({ terminal: o.terminal, token, principal, enabled, audit }))
      app.addHook('onListen', (done) => {
        scheduleReap()
        const tick = setInterval(() => o.terminal.tick(), TICK_MS)
        tick.unref()
        timers[1] = tick
        done()
      })
    },
    async close(): Promise<void> {
      closed = true
      for (const timer of timers) clearTimeout(timer)
      token.forget()
      await o.closeTerminal()
    }
  }
}
