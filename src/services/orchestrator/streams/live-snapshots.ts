import type { FastifyBaseLogger } from 'fastify'
import { orchestratorError } from '../errors.js'
import type { SseConnection } from './sse.js'
import type { StatusService } from '../modules/status/status.service.js'

const POLL_MS = 500
const PING_MS = 30_000

/** `sinceRevision`: absent, or a non-negative safe integer. */
export function parseSinceRevision(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN
  if (!Number.isSafeInteger(value))
    throw orchestratorError('VALIDATION_FAILED', 'VALIDATION_ERROR: sinceRevision must be a non-negative safe integer')
  return value
}

/**
 * `/api/sprint/live/stream`: a `snapshot` frame whenever the run's revision rises above the
 * last one sent (or above `sinceRevision`), and a `ping` frame every 30 s.
 */
export function streamLiveSnapshots(
  connection: SseConnection,
  service: Pick<StatusService, 'reconciledRevision' | 'live'>,
  options: { sinceRevision: number | undefined; log: FastifyBaseLogger }
): void {
  let sent = options.sinceRevision ?? -1
  let timer: NodeJS.Timeout | undefined
  const ping = setInterval(() => connection.send({ event: 'ping', data: {} }), PING_MS)
  ping.unref()
  connection.onClose(() => {
    clearTimeout(timer)
    clearInterval(ping)
  })

  async function tick(): Promise<void> {
    if (connection.closed) return
    try {
      if ((await service.reconciledRevision()) > sent) {
        const snapshot = await service.live()
        sent = snapshot.revision
        connection.send({ event: 'snapshot', data: snapshot })
      }
    } catch (error) {
      options.log.warn({ err: error }, 'live snapshot stream failed')
      connection.send({ event: 'error', data: { message: 'reading the run state failed' } })
      connection.close()
      return
    }
    if (!connection.closed) timer = setTimeout(() => void tick(), POLL_MS)
  }

  void tick()
}
