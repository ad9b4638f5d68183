import { Type } from 'typebox'

export const ErrorBody = Type.Object({ error: Type.String() })
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()])

export const DirectivesBody = Type.Object({ content: Type.String() })
export const DirectivesWrite = Type.Optional(Type.Object({ content: Type.Optional(Type.Unknown()) }))
export const DirectivesWritten = Type.Object({ success: Type.Boolean(), taskCount: Type.Integer() })

export const PlanBody = Type.Optional(
  Type.Object({
    directive: Type.Optional(Type.String({ minLength: 1, maxLength: 200_000 })),
    mode: Type.Optional(Type.Union([Type.Literal('ai'), Type.Literal('structured'), Type.Literal('auto')])),
    /** Replace a sprint left orphaned or killed with unfinished tasks (they are cancelled as abandoned). */
    force: Type.Optional(Type.Boolean())
  })
)

export const PlannedBody = Type.Object({
  id: Type.String(),
  number: Type.Integer(),
  title: Type.String(),
  status: Type.String(),
  mode: Type.String(),
  warnings: Type.Array(Type.String()),
  tasks: Type.Array(
    Type.Object({
      id: Type.String(),
      key: Type.String(),
      title: Type.String(),
      status: Type.String(),
      priority: Type.String(),
      dependencies: Type.Array(Type.String()),
      agent: Nullable(Type.String()),
      risk: Nullable(Type.String())
    })
  ),
  abandoned: Type.Optional(
    Type.Object(
      { sprintId: Type.String(), status: Type.String(), tasks: Type.Array(Type.String()) },
      { description: 'the sprint a forced plan replaced, with the unfinished tasks it cancelled as abandoned' }
    )
  )
})

export const StartBody = Type.Optional(
  Type.Object({
    resume: Type.Optional(Type.Boolean()),
    autoApprove: Type.Optional(Type.Boolean({ description: 'accepted as false only: approvals are decided by humans' }))
  })
)

export const StartedBody = Type.Object({
  jobId: Type.Integer(),
  sprintId: Type.String(),
  status: Type.String(),
  created: Type.Boolean(),
  pid: Type.Union([Type.Integer(), Type.Null()]),
  missionId: Nullable(Type.String())
})

export const KilledAllBody = Type.Object({
  success: Type.Boolean(),
  killed: Type.Integer({ description: 'tasks cancelled by the kill' }),
  jobId: Type.Union([Type.Integer(), Type.Null()]),
  killedPids: Type.Array(Type.Integer())
})

export const KilledTaskBody = Type.Object({
  success: Type.Boolean(),
  killed: Type.Boolean(),
  taskId: Type.String(),
  killedPids: Type.Array(Type.Integer())
})

export const WorkerParams = Type.Object({ id: Type.String() })

export const CleanupBody = Type.Object({
  success: Type.Boolean(),
  removed: Type.Array(Type.Object({ path: Type.String(), branch: Type.String() })),
  kept: Type.Array(Type.Object({ path: Type.String(), branch: Type.String(), reason: Type.String() }))
})

export const ConfigObject = Type.Record(Type.String(), Type.Unknown())
