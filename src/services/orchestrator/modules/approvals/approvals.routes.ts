import type { FastifyRequest } from 'fastify'
import type { App } from '../../../../core/http/server.js'
import { orchestratorError } from '../../errors.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import { assertApprovalId, type ApprovalsService } from './approvals.service.js'
import { describePermissionRequest } from './permission-request.js'
import {
  ApprovalEntry,
  ApprovalOverview,
  DecisionAnswer,
  DecisionBody,
  ErrorBody,
  HistoryPage,
  HistoryQuery,
  PermissionRequestBody,
  WaitQuery,
  type DecisionBodyType,
  type PermissionRequestType
} from './approvals.schemas.js'

const tags = ['approvals']
const DECISION_FIELDS = new Set(Object.keys(DecisionBody.properties))

function unknownFields(body: unknown, known: ReadonlySet<string>): string[] {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).filter((key) => !known.has(key)) : []
}
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/
const DEFAULT_WAIT_SECONDS = 25

const read = { access: ACCESS.bearer }

/**
 * Approval reads, the agent permission request and its long-poll wait, and the gated decision.
 * Each request sees the store as its principal's tenant: another tenant's request is not found.
 */
export function approvalRoutes({ approvals }: { approvals: ApprovalsService }) {
  const service = (request: FastifyRequest) => approvals.forTenant(callerOf(request).tenantId)
  return async function register(app: App) {
    app.get(
      '/api/approvals',
      {
        config: read,
        schema: { tags, summary: 'Approval requests by category (arguments masked)', response: { 200: ApprovalOverview } }
      },
      async (request) => service(request).overview()
    )

    // Registered before /api/approvals/:id; Fastify prefers the static segment anyway.
    app.get<{ Querystring: { status?: 'all' | 'approved' | 'denied' | 'expired'; limit?: number; offset?: number } }>(
      '/api/approvals/history',
      {
        config: read,
        schema: {
          tags,
          summary: 'Closed approval requests, newest first (status, limit 1..100, offset)',
          querystring: HistoryQuery,
          response: { 200: HistoryPage, 400: ErrorBody }
        }
      },
      async (request) =>
        service(request).history({
          status: request.query.status ?? 'all',
          limit: request.query.limit ?? 20,
          offset: request.query.offset ?? 0
        })
    )

    app.get<{ Params: { id: string } }>(
      '/api/approvals/:id',
      {
        config: read,
        schema: {
          tags,
          summary: 'One approval request with its decision',
          response: { 200: ApprovalEntry, 400: ErrorBody, 404: ErrorBody }
        }
      },
      async (request) => service(request).get(request.params.id)
    )

    app.get<{ Params: { id: string }; Querystring: { timeout?: number } }>(
      '/api/approvals/:id/wait',
      {
        config: read,
        schema: {
          tags,
          summary: 'Long-poll: answers when the request is closed, or after ?timeout= seconds (0..60, default 25) with it still pending',
          querystring: WaitQuery,
          response: { 200: ApprovalEntry, 400: ErrorBody, 404: ErrorBody }
        }
      },
      async (request) => {
        assertApprovalId(request.params.id)
        const gone = new AbortController()
        const onClose = () => gone.abort()
        request.raw.socket?.once('close', onClose)
        try {
          return await service(request).wait(request.params.id, (request.query.timeout ?? DEFAULT_WAIT_SECONDS) * 1000, gone.signal)
        } finally {
          request.raw.socket?.off('close', onClose)
        }
      }
    )

    app.post<{ Body: PermissionRequestType }>(
      '/api/approvals/requests',
      {
        // Records a request for a human; it decides nothing, so any verified caller (an agent) may ask.
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: "An agent's permission request: recorded pending with masked arguments (answer it with /wait)",
          body: PermissionRequestBody,
          response: { 201: ApprovalEntry, 400: ErrorBody }
        }
      },
      async (request, reply) => {
        const entry = await service(request).request(describePermissionRequest(request.body))
        return reply.code(201).send(entry)
      }
    )

    app.post<{ Params: { id: string }; Body: DecisionBodyType }>(
      '/api/approvals/:id/decision',
      {
        config: { access: ACCESS.bearer },
        // The id and the switch are checked before the body is validated, so a refusal never depends on the body.
        preValidation: async (request) => {
          assertApprovalId(request.params.id)
          approvals.assertDecider(callerOf(request))
          // The body is strict (schema validation would only strip an unknown field and decide anyway).
          const unknown = unknownFields(request.body, DECISION_FIELDS)
          if (unknown.length > 0)
            throw orchestratorError('VALIDATION_FAILED', `body must NOT have additional properties: ${unknown.join(', ')}`)
        },
        schema: {
          tags,
          summary: 'Decide a pending request (approval.api_decide must be on; Idempotency-Key required)',
          body: DecisionBody,
          response: { 200: DecisionAnswer, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody }
        }
      },
      async (request) => {
        const key = request.headers['idempotency-key']
        if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) throw orchestratorError('ORCH_IDEMPOTENCY_KEY_REQUIRED')
        return service(request).decide(callerOf(request), {
          id: request.params.id,
          decision: request.body.decision,
          reason: request.body.reason,
          channel: 'api',
          idempotencyKey: key
        })
      }
    )
  }
}
