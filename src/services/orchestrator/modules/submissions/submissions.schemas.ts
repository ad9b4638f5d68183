import { Type } from 'typebox'

export const ErrorBody = Type.Object({ error: Type.String() })
const Kind = Type.Union([Type.Literal('task'), Type.Literal('sprint'), Type.Literal('process'), Type.Literal('capability')])

/** ExecutionRequest. actor, tenant and origin are accepted but discarded: the server stamps them. */
export const SubmitBody = Type.Object({
  description: Type.String({ minLength: 1, maxLength: 20_000 }),
  kind: Type.Optional(Kind),
  capabilityTarget: Type.Optional(
    Type.Union([
      Type.String({ minLength: 1, maxLength: 200 }),
      Type.Object(
        {
          capability: Type.String({ minLength: 1, maxLength: 200 }),
          connector: Type.Optional(Type.String({ minLength: 1, maxLength: 200 }))
        },
        { additionalProperties: false }
      )
    ])
  ),
  steps: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 20_000 }), { maxItems: 50 })),
  processRef: Type.Optional(Type.String({ maxLength: 1000 })),
  scopeDir: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  provider: Type.Optional(Type.String({ maxLength: 200 })),
  model: Type.Optional(Type.String({ maxLength: 200 })),
  actor: Type.Optional(Type.Unknown()),
  tenant: Type.Optional(Type.Unknown()),
  origin: Type.Optional(Type.Unknown())
})

export const SubmitAnswerBody = Type.Object({
  executionId: Type.String(),
  missionId: Type.String(),
  status: Type.Union([Type.Literal('running'), Type.Literal('pending-approval'), Type.Literal('failed')]),
  effectClass: Type.String(),
  reason: Type.Optional(Type.String()),
  approvalId: Type.Optional(Type.String()),
  sprintId: Type.Optional(Type.String()),
  jobId: Type.Optional(Type.Integer())
})

export const LastResult = Type.Union([
  Type.Object({
    ok: Type.Boolean(),
    reason: Type.Optional(Type.String()),
    settleDetail: Type.Optional(Type.Union([Type.Literal('done'), Type.Literal('debt'), Type.Literal('failed')]))
  }),
  Type.Null()
])

export const ExecutionBody = Type.Object({
  id: Type.String(),
  title: Type.String(),
  kind: Type.String(),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('running'),
    Type.Literal('parked'),
    Type.Literal('done'),
    Type.Literal('failed')
  ]),
  effectClass: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()]),
  approvalId: Type.Union([Type.String(), Type.Null()]),
  sprintId: Type.Union([Type.String(), Type.Null()]),
  jobId: Type.Union([Type.Integer(), Type.Null()]),
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  lastResult: LastResult,
  createdAt: Type.String(),
  updatedAt: Type.String()
})

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' }) })
