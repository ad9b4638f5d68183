import { Type, type Static, type TSchema } from 'typebox'

/** `T | null` for a primitive, as a JSON-schema type list (the serialiser writes it without trying branches). */
export const Nullable = <T extends TSchema>(schema: T) => {
  const raw = schema as unknown as Record<string, unknown>
  return Type.Unsafe<Static<T> | null>({ ...raw, type: [raw.type as string, 'null'] })
}
/** An object or null. */
export const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const ErrorBody = Type.Object({ error: Type.String() })
const Strings = Type.Array(Type.String())

export const TaskView = Type.Object({
  id: Type.String(),
  key: Type.String(),
  title: Type.String(),
  description: Type.String(),
  priority: Type.String(),
  dependencies: Strings,
  scope: Type.Object({ filesWrite: Strings }),
  goNogo: Type.Object({ goCriteria: Strings, noGoCriteria: Strings }),
  status: Type.String(),
  sprintId: Type.String(),
  assignedAgent: Nullable(Type.String()),
  branch: Nullable(Type.String()),
  worktree: Nullable(Type.String()),
  commit: Nullable(Type.String()),
  reason: Nullable(Type.String()),
  attempts: Type.Integer(),
  filesChanged: Strings,
  createdAt: Type.String(),
  updatedAt: Type.String(),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  usage: Type.Object({ inputTokens: Type.Integer(), outputTokens: Type.Integer(), costUsd: Nullable(Type.Number()) }),
  xverify: OrNull(
    Type.Object({
      verdict: Type.Union([
        Type.Literal('CONFIRMED'),
        Type.Literal('REFUTED'),
        Type.Literal('UNCLEAR'),
        Type.Literal('HOLD'),
        Type.Literal('SKIPPED')
      ]),
      closed: Type.Boolean(),
      reason: Type.String(),
      author: OrNull(Type.Object({ agent: Type.String(), provider: Type.String() })),
      verifier: OrNull(Type.Object({ agent: Type.String(), provider: Type.String(), model: Type.String() })),
      receiptRef: Nullable(Type.String()),
      settlement: Type.Union([Type.Literal('closed'), Type.Literal('held'), Type.Null()]),
      at: Type.String()
    })
  )
})

export const HeartbeatView = Type.Object({
  workerId: Type.String(),
  taskId: Type.String(),
  status: Type.String(),
  currentAction: Type.String(),
  filesChangedCount: Type.Integer(),
  sequence: Type.Integer(),
  timestamp: Type.String(),
  ageMs: Type.Integer(),
  stale: Type.Boolean()
})

const Usage = Type.Object({
  inputTokens: Type.Integer(),
  outputTokens: Type.Integer(),
  costUsd: Nullable(Type.Number()),
  model: Nullable(Type.String())
})

export const TaskResult = Type.Object({
  status: Type.String(),
  reason: Nullable(Type.String()),
  exitCode: Nullable(Type.Integer()),
  attempt: Type.Integer(),
  agent: Type.String(),
  filesChanged: Strings,
  commit: Nullable(Type.String()),
  branch: Nullable(Type.String()),
  agentMs: Nullable(Type.Integer()),
  usage: Usage,
  startedAt: Type.String(),
  finishedAt: Nullable(Type.String())
})

export const TaskDetail = Type.Object({
  taskId: Type.String(),
  task: TaskView,
  currentRun: OrNull(Type.Object({ attempt: Type.Integer(), agent: Type.String(), jobId: Type.Integer(), startedAt: Type.String() })),
  plan: OrNull(Type.Object({ text: Type.String(), truncated: Type.Boolean() })),
  result: OrNull(TaskResult),
  hb: OrNull(HeartbeatView),
  lineage: Type.Object({
    logPath: Type.String(),
    logTailAvailable: Type.Boolean(),
    logTail: OrNull(Type.Object({ lines: Strings, truncated: Type.Boolean() })),
    resultEvidence: OrNull(Type.Object({ selfAssessment: Type.Null(), filesChanged: Strings, notesPresent: Type.Boolean() }))
  })
})

export const WorkerView = Type.Object({
  workerId: Nullable(Type.String()),
  taskId: Type.String(),
  status: Type.String(),
  sequence: Type.Integer(),
  timestamp: Nullable(Type.String()),
  taskTitle: Nullable(Type.String()),
  taskStatus: Nullable(Type.String()),
  currentAction: Type.String(),
  filesChangedCount: Type.Integer(),
  ageMs: Type.Integer(),
  stale: Type.Boolean()
})

export const WorkerLog = Type.Object({ taskId: Type.String(), log: Type.String(), truncated: Type.Boolean(), task: TaskView })
