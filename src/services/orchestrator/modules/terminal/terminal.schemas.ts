import { Type } from 'typebox'

export const ErrorBody = Type.Object({ error: Type.String() })

export const TokenBody = Type.Object({ token: Type.String() })

export const CreateSessionBody = Type.Object(
  {
    kind: Type.Optional(Type.Union([Type.Literal('shell'), Type.Literal('ai'), Type.Literal('quartet')])),
    /** ai sessions: one of terminal.ai_tools (default: the first). */
    tool: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    args: Type.Optional(Type.Array(Type.String({ maxLength: 1024, pattern: '^[^\\u0000]*$' }), { maxItems: 32 })),
    cols: Type.Optional(Type.Integer({ minimum: 2, maximum: 1000 })),
    rows: Type.Optional(Type.Integer({ minimum: 2, maximum: 500 }))
  },
  { additionalProperties: false }
)

export const SessionMeta = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('shell'), Type.Literal('ai'), Type.Literal('quartet')]),
  tool: Type.Optional(Type.String()),
  tenantId: Type.String(),
  pid: Type.Integer(),
  createdAt: Type.String(),
  status: Type.Union([Type.Literal('running'), Type.Literal('exited')]),
  exitCode: Type.Optional(Type.Integer()),
  attached: Type.Integer()
})

export const SessionList = Type.Array(SessionMeta)

export const SessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) })

export const OkBody = Type.Object({ ok: Type.Boolean() })
