import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { ACCESS } from '../../gates/route-access.js'
import { isLoopbackAddress } from '../../runtime/loopback.js'

export interface HealthDeps {
  version: string
  projectRoot: string
  terminalEnabled: boolean
  clock: () => Date
}

const HealthBody = Type.Object({
  status: Type.Literal('ok'),
  timestamp: Type.String(),
  version: Type.Optional(Type.String()),
  pid: Type.Optional(Type.Integer()),
  projectRoot: Type.Optional(Type.String()),
  terminalEnabled: Type.Optional(Type.Boolean())
})

/** GET /health and /api/health: no token needed; loopback callers also see version, pid, project and terminal state. */
export function healthRoutes(deps: HealthDeps) {
  return async function register(app: App) {
    for (const url of ['/health', '/api/health']) {
      app.get(
        url,
        {
          config: { access: ACCESS.public },
          schema: {
            tags: ['health'],
            summary: 'Liveness (loopback callers get process details)',
            security: [],
            response: { 200: HealthBody }
          }
        },
        async (request) => {
          const base = { status: 'ok' as const, timestamp: deps.clock().toISOString() }
          if (!isLoopbackAddress(request.raw.socket?.remoteAddress)) return base
          return { ...base, version: deps.version, pid: process.pid, projectRoot: deps.projectRoot, terminalEnabled: deps.terminalEnabled }
        }
      )
    }
  }
}
