import { Type, type Static, type TSchema } from 'typebox'
import { FLOW_STATES } from '../../state/run-flows.repository.js'

const Literals = <T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values] })
function Nullable<T extends TSchema>(schema: T) {
  const raw = schema as unknown as Record<string, unknown>
  return Type.Unsafe<Static<T> | null>({ ...raw, type: [raw.type as string, 'null'] })
}

export const ErrorBody = Type.Object({ error: Type.String() })
export const ConflictBody = Type.Object({ error: Type.String(), state: Type.Optional(Type.String()) })

// Any string reaches the handler, which answers 400 `Invalid flow id` for one outside [A-Za-z0-9_-].
export const FlowParams = Type.Object({ flowId: Type.String({ maxLength: 1000 }) })

export const ProposeBody = Type.Object({ intentSummary: Type.String({ minLength: 1, maxLength: 20000 }) }, { additionalProperties: false })

export const DecisionBody = Type.Object(
  {
    decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
    reason: Type.Optional(Type.String({ maxLength: 2000 })),
    /** The revision and digest the decider saw; a stale one is refused (409). */
    revision: Type.Optional(Type.Integer({ minimum: 1 })),
    planDigest: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' }))
  },
  { additionalProperties: false }
)

export const CancelBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false })

export const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'flows per page (1–200, default 50)' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'the `nextCursor` of the previous page' }))
  },
  { additionalProperties: false }
)

export const EventsQuery = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0 })),
  token: Type.Optional(Type.String({ description: 'the API token, for EventSource clients that cannot send headers' }))
})

const Actor = Type.Object({
  id: Type.String(),
  role: Type.String(),
  tenantId: Type.String(),
  identityClass: Type.String(),
  assurance: Type.String(),
  provenance: Type.String()
})

const Proposal = Type.Object({
  flowId: Type.String(),
  tenant: Type.String(),
  project: Type.String(),
  actor: Actor,
  origin: Type.String(),
  revision: Type.Integer(),
  intentSummary: Type.String()
})

export const Preview = Type.Object({
  flowId: Type.String(),
  revision: Type.Integer(),
  planDigest: Type.String(),
  taskSummaries: Type.Array(Type.Object({ title: Type.String(), summary: Type.String() })),
  policyDecision: Type.String(),
  gateResult: Type.String(),
  writeScopes: Type.Array(Type.Object({ title: Type.String(), files: Type.Array(Type.String()) })),
  warnings: Type.Array(Type.String())
})

const Snapshot = Type.Object({
  flowId: Type.String(),
  revision: Type.Integer(),
  planDigest: Type.String(),
  approvedBy: Actor,
  approvedAt: Type.String()
})
const Handle = Type.Object({ flowId: Type.String(), jobId: Type.Integer(), logRef: Type.String() })

export const FlowContext = Type.Object({
  flowId: Type.String(),
  state: Literals(FLOW_STATES),
  revision: Type.Integer(),
  planDigest: Nullable(Type.String()),
  proposal: Proposal,
  preview: Nullable(Preview),
  approvedSnapshot: Nullable(Snapshot),
  handle: Nullable(Handle),
  attemptId: Nullable(Type.String()),
  missionId: Nullable(Type.String()),
  sprintId: Nullable(Type.String()),
  cancelReason: Nullable(Type.String()),
  failureReason: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String()
})

export const FlowList = Type.Object({
  flows: Type.Array(
    Type.Object({
      flowId: Type.String(),
      state: Literals(FLOW_STATES),
      intentSummary: Type.String(),
      revision: Type.Integer(),
      createdAt: Type.String(),
      updatedAt: Type.String()
    }),
    { description: 'newest first' }
  ),
  nextCursor: Nullable(Type.String({ description: 'pass as `cursor` for the next (older) page; null on the last page' }))
})

export const StartAnswer = Type.Object({
  accepted: Type.Boolean(),
  started: Type.Boolean(),
  duplicate: Type.Boolean(),
  attemptId: Nullable(Type.String()),
  context: FlowContext
})

export const CancelAnswer = Type.Object({ context: FlowContext, note: Type.Optional(Type.String()) })

const FileStat = Type.Object({ path: Type.String(), insertions: Type.Integer(), deletions: Type.Integer() })
export const FlowDiff = Type.Object({
  flowId: Type.String(),
  state: Type.String(),
  phase: Type.Union([Type.Literal('planned'), Type.Literal('actual')]),
  files: Type.Array(FileStat),
  insertions: Type.Integer(),
  deletions: Type.Integer(),
  tasks: Type.Array(
    Type.Object({
      taskId: Type.String(),
      title: Type.String(),
      status: Type.String(),
      branch: Nullable(Type.String()),
      files: Type.Array(FileStat)
    })
  )
})
