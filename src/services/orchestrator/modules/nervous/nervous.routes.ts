import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import type { NervousService } from './nervous.service.js'

const ErrorBody = Type.Object({ error: Type.String() })
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' }) })
const Risk = Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')])

const Status = Type.Object({
  enabled: Type.Boolean(),
  mode: Type.String(),
  panicGuard: Type.Boolean(),
  detectors: Type.Array(Type.String()),
  pendingCount: Type.Integer()
})
const Pending = Type.Array(
  Type.Object({
    id: Type.String(),
    type: Type.String(),
    description: Type.String(),
    detector: Type.String(),
    subject: Type.String(),
    createdAt: Type.String(),
    risk: Risk,
    evidence: Type.Record(Type.String(), Type.Unknown())
  })
)
const Recommendations = Type.Array(
  Type.Object({
    id: Type.String(),
    eventId: Type.String(),
    action: Type.String(),
    target: Type.Union([Type.String(), Type.Null()]),
    description: Type.String(),
    risk: Risk,
    status: Type.String(),
    outcome: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String()
  })
)
const RecommendationsQuery = Type.Object({
  all: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('true'), Type.Literal('0'), Type.Literal('false')]))
})

/** /api/nervous/*: detections and their recommendations; decisions are control mutations. */
export function nervousRoutes(deps: { nervous: NervousService }) {
  return async function register(app: App) {
    const tags = ['nervous']
    app.get(
      '/api/nervous/status',
      {
        config: { access: ACCESS.bearer },
        schema: { tags, summary: 'Detectors, mode, panic guard and the pending count', response: { 200: Status } }
      },
      async () => deps.nervous.status()
    )
    app.get(
      '/api/nervous/pending',
      {
        config: { access: ACCESS.bearer },
        schema: { tags, summary: 'Detections waiting for a decision, newest first', response: { 200: Pending } }
      },
      async () => deps.nervous.pending()
    )
    app.get(
      '/api/nervous/recommendations',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: 'Open recommendations (all of them with ?all=1)',
          querystring: RecommendationsQuery,
          response: { 200: Recommendations, 400: ErrorBody }
        }
      },
      async (request) => deps.nervous.recommendations(request.query.all === '1' || request.query.all === 'true')
    )
    const decision = (verdict: 'accept' | 'reject', summary: string, ok: ReturnType<typeof Type.Object>) =>
      app.post(
        `/api/nervous/${verdict}/:id`,
        {
          config: { access: ACCESS.control },
          schema: { tags, summary, params: IdParams, response: { 200: ok, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } }
        },
        async (request, reply) => {
          const caller = callerOf(request)
          const result =
            verdict === 'accept'
              ? await deps.nervous.accept(caller, request.params.id)
              : await deps.nervous.reject(caller, request.params.id)
          if (!result.ok) return reply.code(result.status).send(result.body)
          return result.body
        }
      )
    decision(
      'accept',
      'Accept a detection: its recommendation (stop the task or job) is applied now',
      Type.Object({ accepted: Type.String(), applied: Type.Array(Type.String()) })
    )
    decision('reject', 'Reject a detection: its recommendations are dismissed', Type.Object({ rejected: Type.String() }))
    app.post(
      '/api/nervous/recommendations/dismiss/:id',
      {
        config: { access: ACCESS.control },
        schema: {
          tags,
          summary: 'Dismiss an open recommendation',
          params: IdParams,
          response: {
            200: Type.Object({ dismissed: Type.String() }),
            400: ErrorBody,
            404: Type.Object({ dismissed: Type.Null(), error: Type.String() })
          }
        }
      },
      async (request, reply) => {
        const result = await deps.nervous.dismiss(callerOf(request), request.params.id)
        if (!result.ok) return reply.code(result.status).send(result.body)
        return result.body
      }
    )
  }
}
