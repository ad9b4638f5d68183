/**
 * `/api/run-flow/*`: the nine routes of the guided run flows. Every route carries the
 * `run_flow_v2` feature in its access declaration, so while `terminal.run_flow_v2` is off each
 * answers 404 naming the flag before the control gate is consulted.
 */
import type { App } from '../../../../core/http/server.js'
import { orchestratorError } from '../../errors.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import { closeStreamsOnShutdown, openSse, type SseOptions } from '../../streams/sse.js'
import { createRenderedPages } from '../../views/rendered-pages.js'
import { renderFlow } from './run-flows.render.js'
import * as schemas from './run-flows.schemas.js'
import type { RunFlowsService } from './run-flows.service.js'

export const RUN_FLOW_FEATURE = 'run_flow_v2'
const READ = { ...ACCESS.bearer, feature: RUN_FLOW_FEATURE }
const STREAM = { ...ACCESS.stream, feature: RUN_FLOW_FEATURE }
const CONTROL = { ...ACCESS.control, feature: RUN_FLOW_FEATURE }
const tags = ['run-flow']
const SEQUENCE = /^\d{1,15}$/
const SSE_RESPONSE = { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }
const { ErrorBody, ConflictBody } = schemas

export interface RunFlowRoutesDeps {
  flows: RunFlowsService
  sse?: SseOptions
  /** How often an open flow stream looks for new events (and reconciles a running flow with its job). */
  pollMs?: number
}

export function runFlowRoutes(deps: RunFlowRoutesDeps) {
  const { flows } = deps
  // Kept at the flow list's revision (state/run-flow-revisions.ts, raised in every flow write's
  // transaction by any process); the max age covers writes that bypass the repository (hand edits).
  const listPages = createRenderedPages({ maxEntries: 64, maxAgeMs: 1000 })
  return async function register(app: App) {
    const track = closeStreamsOnShutdown(app)

    app.post(
      '/api/run-flow/propose',
      {
        config: { access: CONTROL },
        schema: {
          tags,
          summary: 'Plan an intent into a durable flow awaiting approval (plan preview + planDigest)',
          body: schemas.ProposeBody,
          response: { 201: schemas.FlowContext, 400: ErrorBody, 404: ErrorBody, 502: ErrorBody }
        }
      },
      async (request, reply) => reply.code(201).send(renderFlow(await flows.propose(callerOf(request), request.body)))
    )

    app.get(
      '/api/run-flow/list',
      {
        config: { access: READ },
        schema: {
          tags,
          summary: "The caller's flows, newest first, one page at a time (limit 1–200, default 50; cursor from nextCursor)",
          querystring: schemas.ListQuery,
          response: { 200: schemas.FlowList, 400: ErrorBody, 404: ErrorBody }
        }
      },
      async (request, reply) => {
        const { limit = 50, cursor } = request.query
        const caller = callerOf(request)
        const revision = await flows.listRevision(caller)
        const page = { limit, ...(cursor !== undefined ? { cursor } : {}) }
        return listPages.send(reply, `${caller.tenantId}\n${limit}\n${cursor ?? ''}`, revision, () => flows.listPage(caller, page))
      }
    )

    app.get(
      '/api/run-flow/:flowId',
      {
        config: { access: READ },
        schema: {
          tags,
          summary: 'A flow (RunFlowContext)',
          params: schemas.FlowParams,
          response: { 200: schemas.FlowContext, 400: ErrorBody, 404: ErrorBody }
        }
      },
      async (request) => renderFlow(await flows.get(callerOf(request), request.params.flowId))
    )

    app.get(
      '/api/run-flow/:flowId/preview',
      {
        config: { access: READ },
        schema: {
          tags,
          summary: "A flow's plan preview",
          params: schemas.FlowParams,
          response: { 200: schemas.Preview, 400: ErrorBody, 404: ErrorBody }
        }
      },
      async (request) => flows.preview(callerOf(request), request.params.flowId)
    )

    app.get(
      '/api/run-flow/:flowId/diff',
      {
        config: { access: READ },
        schema: {
          tags,
          summary: "A flow's repository footprint: planned write scopes before it starts, its branches' diff after",
          params: schemas.FlowParams,
          response: { 200: schemas.FlowDiff, 400: ErrorBody, 404: ErrorBody }
        }
      },
      async (request) => flows.diff(callerOf(request), request.params.flowId)
    )

    app.post(
      '/api/run-flow/:flowId/decision',
      {
        config: { access: CONTROL },
        schema: {
          tags,
          summary: 'Approve or reject the exact revision + planDigest of a flow awaiting approval',
          params: schemas.FlowParams,
          body: schemas.DecisionBody,
          response: { 200: schemas.FlowContext, 400: ErrorBody, 404: ErrorBody, 409: ConflictBody }
        }
      },
      async (request) => renderFlow(await flows.decide(callerOf(request), request.params.flowId, request.body))
    )

    app.post(
      '/api/run-flow/:flowId/start',
      {
        config: { access: CONTROL },
        schema: {
          tags,
          summary: 'Start an approved flow as a detached job (idempotent: a repeat answers duplicate: true)',
          params: schemas.FlowParams,
          response: { 202: schemas.StartAnswer, 400: ErrorBody, 404: ErrorBody, 409: ConflictBody }
        }
      },
      async (request, reply) => {
        const answer = await flows.start(callerOf(request), request.params.flowId)
        return reply.code(202).send({ ...answer, context: renderFlow(answer.context) })
      }
    )

    app.post(
      '/api/run-flow/:flowId/cancel',
      {
        config: { access: CONTROL },
        schema: {
          tags,
          summary: "Cancel a flow; a running flow's job is stopped",
          params: schemas.FlowParams,
          body: schemas.CancelBody,
          response: { 200: schemas.CancelAnswer, 400: ErrorBody, 404: ErrorBody, 409: ConflictBody }
        }
      },
      async (request) => {
        const answer = await flows.cancel(callerOf(request), request.params.flowId, request.body)
        return { context: renderFlow(answer.context), ...(answer.note ? { note: answer.note } : {}) }
      }
    )

    app.get(
      '/api/run-flow/:flowId/events',
      {
        exposeHeadRoute: false,
        config: { access: STREAM },
        schema: {
          tags,
          summary: "SSE of one flow's events (id: sequence); ?after= or Last-Event-ID replays from the durable log",
          params: schemas.FlowParams,
          querystring: schemas.EventsQuery,
          response: { 200: SSE_RESPONSE, 400: ErrorBody, 404: ErrorBody }
        }
      },
      async (request, reply) => {
        const lastEventId = request.headers['last-event-id']
        if (lastEventId !== undefined && !SEQUENCE.test(String(lastEventId))) {
          throw orchestratorError('BAD_REQUEST', 'Last-Event-ID must be an event sequence number')
        }
        let after = lastEventId !== undefined ? Number(lastEventId) : (request.query.after ?? 0)
        const flow = await flows.get(callerOf(request), request.params.flowId)
        const connection = openSse(request, reply, deps.sse)
        track(connection)
        let busy = false
        const pump = async () => {
          if (busy || connection.closed) return
          busy = true
          try {
            // Pages until caught up, so a long backlog is replayed in order before live events.
            for (;;) {
              const { events } = await flows.eventsAfter(flow, after)
              for (const event of events) {
                if (!connection.send({ id: event.sequence, event: event.type, data: event })) return
                after = event.sequence
              }
              if (events.length < 500) return
            }
          } catch (error) {
            request.log.warn({ err: error, flowId: flow.flowId }, 'run-flow stream poll failed')
          } finally {
            busy = false
          }
        }
        const timer = setInterval(() => void pump(), deps.pollMs ?? 500)
        timer.unref()
        connection.onClose(() => clearInterval(timer))
        await pump()
      }
    )
  }
}
