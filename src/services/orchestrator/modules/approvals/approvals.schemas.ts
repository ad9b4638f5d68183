import { Type, type Static, type TSchema } from 'typebox'

const Nullable = <T extends TSchema>(schema: T) => {
  const raw = schema as unknown as Record<string, unknown>
  return Type.Unsafe<Static<T> | null>({ ...raw, type: [raw.type as string, 'null'] })
}

export const ErrorBody = Type.Object({ error: Type.String() })
export const Category = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('denied'), Type.Literal('expired')])
export const DecisionValue = Type.Union([Type.Literal('allow'), Type.Literal('deny'), Type.Literal('defer'), Type.Literal('escalate')])
export const RiskValue = Type.Union([
  Type.Literal('none'),
  Type.Literal('low'),
  Type.Literal('medium'),
  Type.Literal('high'),
  Type.Literal('critical')
])
export const ScopeValue = Type.Union(
  ['file-read', 'file-write', 'shell-exec', 'git-mutation', 'network', 'credential', 'lifecycle'].map((s) => Type.Literal(s))
)
// Masked arguments are whatever JSON the requester sent, secrets replaced.
const AnyJson = Type.Unsafe<unknown>({})

export const DecisionView = Type.Object({
  requestId: Type.String(),
  decision: Type.String(),
  decidedBy: Type.String(),
  channel: Type.String(),
  decidedAt: Type.String(),
  reason: Type.String(),
  closureReason: Type.Optional(Type.String())
})

export const ApprovalEntry = Type.Object({
  category: Category,
  effect: Type.Union([Type.Literal('allow'), Type.Literal('deny'), Type.Null()]),
  request: Type.Object({
    id: Type.String(),
    version: Type.String(),
    requester: Type.Object({ kind: Type.String(), id: Type.String() }),
    summary: Type.String(),
    scope: Type.String(),
    risk: Type.String(),
    policy: Type.String(),
    defaultAction: Type.String(),
    taskId: Nullable(Type.String()),
    scopeId: Nullable(Type.String()),
    toolName: Nullable(Type.String()),
    maskedArgs: AnyJson,
    createdAt: Type.String(),
    expiresAt: Type.String()
  }),
  decision: Type.Union([DecisionView, Type.Null()])
})

export const ApprovalOverview = Type.Object({
  pending: Type.Array(ApprovalEntry),
  approved: Type.Array(ApprovalEntry),
  denied: Type.Array(ApprovalEntry),
  expired: Type.Array(ApprovalEntry)
})

export const HistoryQuery = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('approved'), Type.Literal('denied'), Type.Literal('expired')])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 }))
  },
  { additionalProperties: false }
)

export const HistoryPage = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.String(),
      summary: Type.String(),
      scope: Type.String(),
      risk: Type.String(),
      policy: Type.String(),
      maskedArgs: AnyJson,
      category: Category,
      channel: Nullable(Type.String()),
      decidedBy: Nullable(Type.String()),
      decidedAt: Nullable(Type.String()),
      reason: Nullable(Type.String()),
      createdAt: Type.String(),
      expiresAt: Type.String()
    })
  ),
  pagination: Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), hasMore: Type.Boolean() })
})

export const DecisionBody = Type.Object(
  {
    decision: DecisionValue,
    reason: Type.Optional(Type.String({ maxLength: 2000 }))
  },
  { additionalProperties: false }
)

export const DecisionAnswer = Type.Object({ success: Type.Literal(true), decision: DecisionView, idempotent: Type.Boolean() })

/** A permission request from an agent (through `quartet mcp` or a hook). */
export const PermissionRequestBody = Type.Object(
  {
    toolName: Type.String({ minLength: 1, maxLength: 200 }),
    input: Type.Record(Type.String(), AnyJson),
    toolUseId: Type.Optional(Type.String({ maxLength: 200 })),
    summary: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    requester: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9][A-Za-z0-9._:@-]*$' })),
    taskId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' })),
    scope: Type.Optional(ScopeValue),
    risk: Type.Optional(RiskValue)
  },
  { additionalProperties: false }
)

export const WaitQuery = Type.Object(
  {
    timeout: Type.Optional(Type.Integer({ minimum: 0, maximum: 60 }))
  },
  { additionalProperties: false }
)

export type DecisionBodyType = Static<typeof DecisionBody>
export type PermissionRequestType = Static<typeof PermissionRequestBody>
