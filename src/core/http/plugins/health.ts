import { Type } from 'typebox'
import type { App } from '../server.js'
import { withTimeout } from '../../with-timeout.js'

export interface HealthOptions {
  /** Service name reported in the body. */
  name: string
  path?: string
  /** Throws to report the service unhealthy (503). */
  check?: () => Promise<void>
  /** A check that has not answered by then reports the service unavailable (default 2 s). */
  timeoutMs?: number
}

/** Seconds a client (or load balancer) is told to wait before asking again while unhealthy. */
export const RETRY_AFTER_SECONDS = 5

/**
 * GET /health: liveness plus whatever the service checks (its database, usually). While a
 * dependency is down it answers 503 with the reason, and 200 again as soon as it is back.
 */
export function health(app: App, options: HealthOptions): void {
  app.get(
    options.path ?? '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('ok'), service: Type.String(), uptimeSeconds: Type.Number() }),
          503: Type.Object({ status: Type.Literal('unavailable'), service: Type.String(), reason: Type.String() })
        }
      }
    },
    async (_request, reply) => {
      try {
        if (options.check) await withTimeout(options.check(), options.timeoutMs ?? 2000, 'health check')
        return { status: 'ok' as const, service: options.name, uptimeSeconds: Math.round(process.uptime()) }
      } catch (error) {
        return reply
          .code(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send({ status: 'unavailable' as const, service: options.name, reason: String(error) })
      }
    }
  )
}
