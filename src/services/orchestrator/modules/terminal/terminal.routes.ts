/**
 * The terminal's routes: the token bootstrap (API token, loopback), the session routes and the
 * WebSocket transport (terminal token only). See docs/orchestrator.md#terminal.
 */
import type { App } from '../../../../core/http/server.js'
import { orchestratorError } from '../../errors.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import type { Principal } from '../../principal.js'
import { handleTerminalSocket } from './terminal.socket.js'
import type { TerminalService } from './terminal.service.js'
import type { TerminalToken } from './terminal-token.js'
import * as schemas from './terminal.schemas.js'

const tags = ['terminal']

export interface TerminalRouteDeps {
  terminal: TerminalService
  token: TerminalToken
  principal: Principal
  enabled: () => boolean
  audit(caller: Principal, action: string): Promise<void>
}

export function terminalRoutes(deps: TerminalRouteDeps) {
  return async function register(app: App) {
    app.get(
      '/api/terminal/token',
      {
        config: { access: ACCESS.terminalBootstrap },
        schema: {
          tags,
          summary: 'The terminal token (loopback callers holding the API token only; never cached)',
          response: { 200: schemas.TokenBody, 401: schemas.ErrorBody, 403: schemas.ErrorBody, 404: schemas.ErrorBody }
        }
      },
      async (request, reply) => {
        void reply.header('cache-control', 'no-store')
        if (!deps.enabled()) throw orchestratorError('ORCH_TERMINAL_DISABLED')
        await deps.audit(callerOf(request), 'token.issue')
        return { token: deps.token.token }
      }
    )

    app.post(
      '/api/terminal/sessions',
      {
        config: { access: ACCESS.terminal },
        schema: {
          tags,
          summary: 'Start a PTY session: shell, ai (an allowed agent CLI) or quartet',
          body: schemas.CreateSessionBody,
          response: {
            201: schemas.SessionMeta,
            400: schemas.ErrorBody,
            401: schemas.ErrorBody,
            403: schemas.ErrorBody,
            404: schemas.ErrorBody,
            409: schemas.ErrorBody
          }
        }
      },
      async (request, reply) => {
        const session = await deps.terminal.create(callerOf(request), request.body)
        return reply.code(201).send(session)
      }
    )

    app.get(
      '/api/terminal/sessions',
      {
        config: { access: ACCESS.terminal },
        schema: {
          tags,
          summary: "The caller's tenant's sessions",
          response: { 200: schemas.SessionList, 401: schemas.ErrorBody, 403: schemas.ErrorBody, 404: schemas.ErrorBody }
        }
      },
      async (request) => deps.terminal.list(callerOf(request))
    )

    app.delete(
      '/api/terminal/sessions/:id',
      {
        config: { access: ACCESS.terminal },
        schema: {
          tags,
          summary: 'Kill a session (its whole process group); an unknown id answers the same',
          params: schemas.SessionParams,
          response: { 200: schemas.OkBody, 401: schemas.ErrorBody, 403: schemas.ErrorBody, 404: schemas.ErrorBody }
        }
      },
      async (request) => {
        await deps.terminal.kill(callerOf(request), request.params.id)
        return { ok: true }
      }
    )

    app.get(
      '/api/terminal/ws',
      {
        websocket: true,
        config: { access: ACCESS.terminalSocket },
        schema: {
          tags,
          summary: 'WebSocket terminal transport: subprotocol quartet.<terminal token>; JSON frames attach/input/resize',
          hide: true
        }
      },
      (socket, request) => handleTerminalSocket(socket, request, deps)
    )
  }
}
