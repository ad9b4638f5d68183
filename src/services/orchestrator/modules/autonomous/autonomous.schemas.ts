import { Type } from 'typebox'

export const ErrorBody = Type.Object({ error: Type.String() })
/** The service's refusals carry code and triggerId; the gates' 403 (control switch) is a plain {error}. */
export const Refusal = Type.Object({
  error: Type.String(),
  code: Type.Optional(Type.String()),
  triggerId: Type.Optional(Type.String()),
  reasonCode: Type.Optional(Type.String())
})

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' }) })
export const CorrelationParams = Type.Object({
  correlationId: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._:-]+$' })
})

const LastRun = Type.Union([
  Type.Null(),
  Type.Object({ at: Type.String(), ok: Type.Boolean(), reason: Type.Union([Type.String(), Type.Null()]) })
])
const AuditLine = Type.Object({ timestamp: Type.String(), action: Type.String(), outcome: Type.String(), reason: Type.String() })

export const Status = Type.Object({
  enabled: Type.Boolean(),
  policy: Type.String(),
  pendingCount: Type.Integer(),
  backlogSummary: Type.Object({
    total: Type.Integer(),
    pending: Type.Integer(),
    running: Type.Integer(),
    parked: Type.Integer(),
    done: Type.Integer(),
    failed: Type.Integer()
  }),
  recentAudit: Type.Array(AuditLine),
  schedules: Type.Array(
    Type.Object({
      id: Type.String(),
      cron: Type.String(),
      timezone: Type.String(),
      concurrency: Type.String(),
      lastSlotAt: Type.Union([Type.String(), Type.Null()]),
      nextRunAt: Type.Union([Type.String(), Type.Null()]),
      error: Type.Optional(Type.String())
    })
  )
})

export const Pending = Type.Array(
  Type.Object({
    triggerId: Type.String(),
    action: Type.String(),
    requestedBy: Type.String(),
    enqueuedAt: Type.String(),
    expiresAt: Type.String()
  })
)

export const Backlog = Type.Array(
  Type.Object({
    id: Type.String(),
    title: Type.String(),
    kind: Type.String(),
    status: Type.String(),
    policy: Type.String(),
    trigger: Type.Record(Type.String(), Type.Unknown()),
    lastRun: LastRun,
    source: Type.String(),
    correlationId: Type.String(),
    executionId: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String()
  })
)

export const Lineage = Type.Object({
  correlationId: Type.String(),
  events: Type.Array(
    Type.Object({
      timestamp: Type.String(),
      action: Type.String(),
      outcome: Type.String(),
      reason: Type.Union([Type.String(), Type.Null()]),
      correlationId: Type.String()
    })
  ),
  totalEvents: Type.Integer()
})

export const Approved = Type.Object({ approved: Type.String() })
export const Rejected = Type.Object({ rejected: Type.String() })

/** Reactive input: what happened, in words an agent can act on; `payload` is kept as sent. */
export const ReactiveBody = Type.Object(
  {
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._:-]+$' })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.String({ minLength: 1, maxLength: 20_000, pattern: '\\S' }),
    kind: Type.Optional(Type.Union([Type.Literal('task'), Type.Literal('sprint')])),
    correlationId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._:-]+$' })),
    payload: Type.Optional(Type.Unknown())
  },
  { additionalProperties: false }
)

export const ReactiveAccepted = Type.Object({
  accepted: Type.Boolean(),
  id: Type.String(),
  correlationId: Type.String(),
  status: Type.String()
})
