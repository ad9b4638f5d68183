import type { App } from '../../../../core/http/server.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import type { AutonomousService } from './autonomous.service.js'
import * as schemas from './autonomous.schemas.js'

/** /api/autonomous/* and POST /api/reactive/webhook; reads and decisions are scoped to the caller's tenant. */
export function autonomousRoutes(deps: { autonomous: AutonomousService }) {
  return async function register(app: App) {
    const tags = ['autonomous']
    app.get(
      '/api/autonomous/status',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: 'The autonomous engine: switch, backlog counts, last events, schedules',
          response: { 200: schemas.Status }
        }
      },
      async (request) => deps.autonomous.status(callerOf(request))
    )
    app.get(
      '/api/autonomous/pending',
      {
        config: { access: ACCESS.bearer },
        schema: { tags, summary: 'Triggers waiting for a human decision', response: { 200: schemas.Pending } }
      },
      async (request) => deps.autonomous.pending(callerOf(request))
    )
    app.get(
      '/api/autonomous/backlog',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: 'Backlog entries (reactive, scheduled, process submissions), newest first',
          response: { 200: schemas.Backlog }
        }
      },
      async (request) => deps.autonomous.backlog(callerOf(request))
    )
    app.get(
      '/api/autonomous/lineage/:correlationId',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: 'Every recorded event of one correlation id',
          params: schemas.CorrelationParams,
          response: { 200: schemas.Lineage, 400: schemas.ErrorBody }
        }
      },
      async (request) => deps.autonomous.lineage(callerOf(request), request.params.correlationId)
    )
    for (const verdict of ['approve', 'reject'] as const) {
      app.post(
        `/api/autonomous/${verdict}/:id`,
        {
          config: { access: ACCESS.control },
          schema: {
            tags,
            summary:
              verdict === 'approve'
                ? 'Approve a waiting trigger: its entry joins the backlog'
                : 'Reject a waiting trigger: its entry fails',
            params: schemas.IdParams,
            response: {
              200: verdict === 'approve' ? schemas.Approved : schemas.Rejected,
              400: schemas.ErrorBody,
              403: schemas.Refusal,
              409: schemas.Refusal
            }
          }
        },
        async (request, reply) => {
          const caller = callerOf(request)
          const result =
            verdict === 'approve'
              ? await deps.autonomous.approve(caller, request.params.id)
              : await deps.autonomous.reject(caller, request.params.id)
          if (!result.ok) return reply.code(result.status).send(result.body)
          return result.body
        }
      )
    }
    app.post(
      '/api/reactive/webhook',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: "Append reactive input to the autonomous backlog (in the caller's tenant)",
          body: schemas.ReactiveBody,
          response: { 202: schemas.ReactiveAccepted, 400: schemas.ErrorBody }
        }
      },
      async (request, reply) => {
        const caller = callerOf(request)
        const body = request.body
        const entry = await deps.autonomous.enqueue(
          {
            source: `reactive:${body.source ?? 'api'}`,
            title: body.title,
            description: body.description,
            kind: body.kind,
            payload: body.payload,
            correlationId: body.correlationId
          },
          caller.tenantId,
          caller.id
        )
        return reply.code(202).send({ accepted: true, id: entry.id, correlationId: entry.correlationId, status: entry.status })
      }
    )
  }
}
