/**
 * Every SSE route of the orchestrator: the event log, a worker's log, the live run view and a
 * task's output. Each takes the response over (sse.ts) only after its input was checked, so
 * every refusal is an ordinary `{error}` answer from the error table.
 */
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../../../core/http/server.js'
import { orchestratorError } from '../errors.js'
import { ACCESS } from '../gates/route-access.js'
import type { StatusService } from '../modules/status/status.service.js'
import { assertTaskId, type TasksService } from '../modules/tasks/tasks.service.js'
import type { EventFilter, EventHub } from './event-hub.js'
import { parseSinceRevision, streamLiveSnapshots } from './live-snapshots.js'
import { closeStreamsOnShutdown, openSse, type SseOptions } from './sse.js'
import { streamTaskOutput } from './task-output.js'
import { pumpWorkerLog } from './worker-log-stream.js'

const SEQUENCE = /^\d{1,15}$/
const TASK_ID = /^[A-Za-z0-9_-]{1,200}$/
const tags = ['streams']
const ErrorBody = Type.Object({ error: Type.String() })
const SSE_RESPONSE = { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }

const EventsQuery = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0 })),
  sprintId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  taskId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  types: Type.Optional(Type.String({ maxLength: 2000 })),
  token: Type.Optional(Type.String({ description: 'the API token, for EventSource clients that cannot send headers' }))
})

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
  ;(app as App).get(
    '/api/events',
    {
      exposeHeadRoute: false,
      config: { access: ACCESS.stream },
      schema: {
        tags,
        summary: 'SSE: the event log (id: sequence, event: type); Last-Event-ID or ?after= replays what was missed',
        querystring: EventsQuery,
        response: { 200: SSE_RESPONSE, 400: ErrorBody }
      }
    },
    async (request, reply) => {
      const lastEventId = request.headers['last-event-id']
      if (lastEventId !== undefined && !SEQUENCE.test(String(lastEventId))) {
        throw orchestratorError('BAD_REQUEST', 'Last-Event-ID must be an event sequence number')
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
  /** Whether the task still runs (its log may grow) and its status; the stream ends once it does not. */
  runState(taskId: string): Promise<{ running: boolean; status: string }>
  sse?: SseOptions
  pollMs?: number
  clock?: () => Date
  /** A reader further behind than this skips ahead with a `log_gap` frame (default 4 MiB). */
  maxLagBytes?: number
}

/**
 * GET /api/workers/:taskId/logs/stream: `log_line` per line of the worker log (id: byte offset,
 * Last-Event-ID resumes), `log_gap` when a reader fell too far behind, `log_unavailable` once while
 * it is missing (an unknown task too), `log_end` with the task's final status.
 */
export function registerWorkerLogStream(app: FastifyInstance, options: WorkerLogStreamOptions): void {
  const track = closeStreamsOnShutdown(app)
  const now = () => (options.clock ?? (() => new Date()))().toISOString()
  ;(app as App).get(
    '/api/workers/:taskId/logs/stream',
    {
      exposeHeadRoute: false,
      config: { access: ACCESS.stream },
      schema: {
        tags,
        summary:
          'SSE: `log_line` per line of the worker log (id: byte offset; Last-Event-ID resumes), `log_gap` for a reader too far behind, ' +
          '`log_unavailable` once while it is missing, `log_end` with the final status',
        params: Type.Object({ taskId: Type.String() }),
        querystring: Type.Object({ token: Type.Optional(Type.String()) }),
        response: { 200: SSE_RESPONSE, 403: ErrorBody }
      }
    },
    async (request, reply) => {
      const { taskId } = request.params
      if (!TASK_ID.test(taskId)) throw orchestratorError('FORBIDDEN', 'Invalid task id')
      // An unknown task answers 200 with log_unavailable, as the original does (docs/compatibility.md#worker-log-stream).
      const file = await options.resolveLogFile(taskId)
      const lastEventId = request.headers['last-event-id']
      const resumeAt = typeof lastEventId === 'string' && SEQUENCE.test(lastEventId.trim()) ? Number(lastEventId.trim()) : null
      const connection = openSse(request, reply, options.sse)
      track(connection)
      pumpWorkerLog({
        connection,
        taskId,
        file,
        resumeAt,
        runState: () => options.runState(taskId),
        now,
        ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
        ...(options.maxLagBytes !== undefined ? { maxLagBytes: options.maxLagBytes } : {}),
        onError: (error) => request.log.warn({ err: error, taskId }, 'worker log stream failed')
      })
    }
  )
}

export interface StreamRoutesDeps {
  hub: EventHub
  projectId: number
  status: Pick<StatusService, 'reconciledRevision' | 'live'>
  tasks: Pick<TasksService, 'findTask' | 'lookup' | 'logFileOf' | 'runState' | 'workerOf'>
}

/** The four streams, as one plugin of the orchestrator's app. */
export function streamRoutes(deps: StreamRoutesDeps) {
  return async function register(app: App) {
    registerEventStream(app, { hub: deps.hub, projectId: deps.projectId })
    registerWorkerLogStream(app, {
      resolveLogFile: async (taskId) => {
        const task = await deps.tasks.lookup(taskId)
        return task ? deps.tasks.logFileOf(task) : null
      },
      runState: (taskId) => deps.tasks.runState(taskId)
    })
    const track = closeStreamsOnShutdown(app)

    app.get(
      '/api/sprint/live/stream',
      {
        exposeHeadRoute: false,
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: 'SSE: `snapshot` whenever the revision rises above sinceRevision, `ping` every 30 s',
          querystring: Type.Object({ sinceRevision: Type.Optional(Type.String()) }),
          response: { 200: SSE_RESPONSE, 400: ErrorBody }
        }
      },
      async (request, reply) => {
        const sinceRevision = parseSinceRevision(request.query.sinceRevision)
        const connection = openSse(request, reply)
        track(connection)
        streamLiveSnapshots(connection, deps.status, { sinceRevision, log: request.log })
      }
    )

    app.get(
      '/api/output-stream',
      {
        exposeHeadRoute: false,
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: "SSE: snapshot of a task's output, then new output lines, then done when the task stops",
          querystring: Type.Object({ taskId: Type.Optional(Type.String()), sprintId: Type.Optional(Type.String()) }),
          response: { 200: SSE_RESPONSE, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody }
        }
      },
      async (request, reply) => {
        const { taskId, sprintId } = request.query
        if (!taskId) throw orchestratorError('BAD_REQUEST', 'Missing taskId')
        assertTaskId(taskId)
        const task = await deps.tasks.findTask(taskId, 'Task not found')
        if (sprintId !== undefined && task.sprintId !== sprintId) throw orchestratorError('ORCH_TASK_NOT_FOUND', 'Task not found')
        const connection = openSse(request, reply)
        track(connection)
        streamTaskOutput(connection, task.id, { tasks: deps.tasks, logFile: deps.tasks.logFileOf(task), log: request.log })
      }
    )
  }
}
