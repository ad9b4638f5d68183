import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { RETRY_AFTER_SECONDS } from '../../../../core/http/plugins/health.js'
import { withTimeout } from '../../../../core/with-timeout.js'
import { ACCESS } from '../../gates/route-access.js'
import { isLoopbackAddress } from '../../runtime/loopback.js'

export interface HealthDeps {
  version: string
  projectRoot: string
  terminalEnabled: boolean
  clock: () => Date
  /** Throws while the database cannot be reached. */
  checkDatabase: () => Promise<void>
  /** A check that has not answered by then counts as down (default 2 s). */
  checkTimeoutMs?: number
}

const LoopbackExtras = {
  version: Type.Optional(Type.String()),
  pid: Type.Optional(Type.Integer()),
  projectRoot: Type.Optional(Type.String()),
  terminalEnabled: Type.Optional(Type.Boolean())
}

const HealthBody = Type.Object({ status: Type.Literal('ok'), timestamp: Type.String(), ...LoopbackExtras })

const UnhealthyBody = Type.Object({
  status: Type.Literal('unavailable'),
  timestamp: Type.String(),
  down: Type.Array(Type.Literal('database'), { description: 'the dependencies that cannot be reached' }),
  reason: Type.String(),
  ...LoopbackExtras
})

/**
 * GET /health and /api/health: no token needed; loopback callers (not `Origin: null`) also see
 * version, pid, project and terminal state. 503 naming what is down while the database cannot be reached.
 */
export function healthRoutes(deps: HealthDeps) {
  return async function register(app: App) {
    for (const url of ['/health', '/api/health']) {
      app.get(
        url,
        {
          config: { access: ACCESS.public },
          schema: {
            tags: ['health'],
            summary: 'Liveness and database reachability (loopback callers get process details)',
            security: [],
            response: { 200: HealthBody, 503: UnhealthyBody }
          }
        },
        async (request, reply) => {
          const timestamp = deps.clock().toISOString()
          // `Origin: null` is granted CORS for file pages, but any website's sandboxed iframe sends it
          // too: such a caller gets what a remote one gets, never the process details.
          const loopback = isLoopbackAddress(request.raw.socket?.remoteAddress) && request.headers.origin !== 'null'
          const extras = loopback
            ? { version: deps.version, pid: process.pid, projectRoot: deps.projectRoot, terminalEnabled: deps.terminalEnabled }
            : {}
          try {
            await withTimeout(deps.checkDatabase(), deps.checkTimeoutMs ?? 2000, 'health check')
          } catch (error) {
            // The driver's words (host, port, file) are for the machine's owner only.
            const detail = loopback ? `: ${error instanceof Error ? error.message : String(error)}` : ''
            const reason = `database unreachable${detail}`
            return reply
              .code(503)
              .header('retry-after', String(RETRY_AFTER_SECONDS))
              .send({ status: 'unavailable' as const, timestamp, down: ['database' as const], reason, ...extras })
          }
          return { status: 'ok' as const, timestamp, ...extras }
        }
      )
    }
  }
}
