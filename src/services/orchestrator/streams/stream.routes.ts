import type { FastifyInstance } from 'fastify'
import type { EventHub, EventFilter } from './event-hub.js'
import { tailLogFile } from './log-tail.js'
import { closeStreamsOnShutdown, openSse, type SseOptions } from './sse.js'

const SEQUENCE = /^\d{1,15}$/
const TASK_ID = /^[A-Za-z0-9_-]{1,200}$/

interface EventsQuery {
  after?: number
  sprintId?: string
  taskId?: string
  types?: string
}

const eventsQuerySchema = {
  type: 'object',
  properties: {
    after: { type: 'integer', minimum: 0 },
    sprintId: { type: 'string', minLength: 1, maxLength: 200 },
    taskId: { type: 'string', minLength: 1, maxLength: 200 },
    types: { type: 'string', maxLength: 2000 },
    token: { type: 'string' }
  }
} as const

export interface EventStreamOptions {
  hub: EventHub
  projectId: number
  sse?: SseOptions
}

/**
 * GET /api/events: every event of the project's log as `id: <seq>`, `event: <type>`,
 * `data: <event JSON>`. Last-Event-ID (on reconnect) or ?after= replays what was missed.
 */
export function registerEventStream(app: FastifyInstance, options: EventStreamOptions): void {
  const track = closeStreamsOnShutdown(app)
  app.get<{ Querystring: EventsQuery }>(
    '/api/events',
    { exposeHeadRoute: false, schema: { querystring: eventsQuerySchema } },
    async (request, reply) => {
      const lastEventId = request.headers['last-event-id']
      if (lastEventId !== undefined && !SEQUENCE.test(String(lastEventId))) {
        return reply.code(400).send({ error: 'Last-Event-ID must be an event sequence number' })
      }
      const afterSeq = lastEventId !== undefined ? Number(lastEventId) : request.query.after
      const types = request.query.types
        ?.split(',')
        .map((type) => type.trim())
        .filter(Boolean)
      const filter: EventFilter = {
        ...(request.query.sprintId ? { sprintId: request.query.sprintId } : {}),
        ...(request.query.taskId ? { taskId: request.query.taskId } : {}),
        ...(types && types.length > 0 ? { types } : {})
      }
      const connection = openSse(request, reply, options.sse)
      track(connection)
      try {
        const subscription = await options.hub.subscribe({
          projectId: options.projectId,
          ...(afterSeq !== undefined ? { afterSeq } : {}),
          filter,
          deliver: (delivery) =>
            delivery.kind === 'event'
              ? connection.send({ id: delivery.event.seq, event: delivery.event.type, data: delivery.event })
              : connection.send({
                  id: delivery.toSeq,
                  event: 'gap',
                  data: { missed: delivery.missed, fromSeq: delivery.fromSeq, toSeq: delivery.toSeq }
                })
        })
        connection.onClose(() => subscription.close())
      } catch (error) {
        request.log.error({ err: error }, 'event stream could not subscribe')
        connection.close()
      }
    }
  )
}

export interface WorkerLogStreamOptions {
  /** The log file of a task, or null when there is no such task. */
  resolveLogFile(taskId: string): string | null | Promise<string | null>
  sse?: SseOptions
  pollMs?: number
  clock?: () => Date
}

/** GET /api/workers/:taskId/logs/stream: `log_line` per line of the worker log, `log_unavailable` once while it is missing. */
export function registerWorkerLogStream(app: FastifyInstance, options: WorkerLogStreamOptions): void {
  const track = closeStreamsOnShutdown(app)
  const now = () => (options.clock ?? (() => new Date()))().toISOString()
  app.get<{ Params: { taskId: string } }>('/api/workers/:taskId/logs/stream', { exposeHeadRoute: false }, async (request, reply) => {
    const { taskId } = request.params
    if (!TASK_ID.test(taskId)) return reply.code(403).send({ error: 'Invalid task id' })
    const file = await options.resolveLogFile(taskId)
    if (file === null) return reply.code(404).send({ error: 'Task not found' })
    const connection = openSse(request, reply, options.sse)
    track(connection)
    const tail = tailLogFile({
      file,
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      onLine: (line) => {
        connection.send({ event: 'log_line', data: { type: 'log_line', taskId, line, ts: now() } })
      },
      onUnavailable: () => {
        connection.send({ event: 'log_unavailable', data: { type: 'log_unavailable', taskId, ts: now() } })
      },
      onError: (error) => request.log.warn({ err: error, taskId }, 'worker log tail failed')
    })
    connection.onClose(() => tail.close())
  })
}
