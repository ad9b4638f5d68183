import { Type } from 'typebox'
import { Nullable, OrNull } from '../tasks/tasks.schemas.js'

const Strings = Type.Array(Type.String())
const Count = Type.Integer({ minimum: 0 })
const Lifecycle = Type.Union([
  Type.Literal('IDLE'),
  Type.Literal('ACTIVE'),
  Type.Literal('ORPHANED'),
  Type.Literal('COMPLETE'),
  Type.Literal('ABORTED')
])

const Progress = Type.Object({
  done: Count,
  active: Count,
  blocked: Count,
  noGo: Count,
  pending: Count,
  orphaned: Count,
  cancelled: Count,
  total: Count
})

const Alert = Type.Object({
  level: Type.String(),
  code: Type.String(),
  message: Type.String(),
  source: Type.String(),
  timestamp: Type.String()
})

export const SprintSummary = Type.Object({
  id: Type.String(),
  title: Type.String(),
  status: Type.String(),
  metrics: Type.Object({
    tasks: Type.String(),
    completed: Type.String(),
    noGoRate: Type.String(),
    coverage: Type.String(),
    duration: Type.String()
  }),
  tasks: Strings
})

const WorkingAgent = Type.Object({
  taskId: Type.String(),
  title: Type.String(),
  taskStatus: Type.String(),
  agent: Nullable(Type.String()),
  branch: Nullable(Type.String()),
  worktree: Nullable(Type.String()),
  workerId: Nullable(Type.String()),
  status: Type.String(),
  currentAction: Type.String(),
  filesChangedCount: Type.Integer(),
  sequence: Type.Integer(),
  timestamp: Nullable(Type.String()),
  ageMs: Nullable(Type.Integer()),
  stale: Type.Boolean()
})

const StatusJob = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  pid: Nullable(Type.Integer()),
  hostname: Nullable(Type.String()),
  resume: Type.Boolean(),
  startedAt: Nullable(Type.String()),
  heartbeatAt: Nullable(Type.String())
})

/** Both shapes of /api/status: idle (with lastSprint) and a run to look at (with job and usage). */
export const StatusBody = Type.Object({
  sprint: Type.Object({
    id: Nullable(Type.String()),
    number: Type.Optional(Type.Integer()),
    title: Type.Optional(Type.String()),
    phase: Type.String(),
    status: Type.String()
  }),
  agents: Type.Array(WorkingAgent),
  progress: Progress,
  alerts: Type.Array(Alert),
  lifecycle: Lifecycle,
  active: Type.Boolean(),
  resumable: Type.Boolean(),
  recoveryCommand: Nullable(Type.String()),
  statusReadModel: Type.Object({ state: Type.String(), source: Type.String(), revision: Type.Integer() }),
  updatedAt: Type.String(),
  idle: Type.Boolean(),
  lastSprint: Type.Optional(OrNull(SprintSummary)),
  job: Type.Optional(OrNull(StatusJob)),
  usage: Type.Optional(Type.Object({ tokensUsed: Type.Integer(), costUsd: Type.Number() }))
})

export const HistoryRow = Type.Object({
  id: Type.String(),
  sprint: Type.String(),
  number: Type.Integer(),
  status: Type.String(),
  tasks: Type.String(),
  completed: Type.String(),
  noGoRate: Type.String(),
  coverage: Type.String(),
  duration: Type.String(),
  agents: Type.String(),
  skills: Type.String(),
  durationMs: Nullable(Type.Integer()),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  stopReason: Nullable(Type.String()),
  tokensUsed: Type.Integer(),
  costUsd: Type.Number()
})

const LiveWorker = Type.Object({
  taskId: Type.String(),
  title: Type.String(),
  status: Type.String(),
  agent: Nullable(Type.String()),
  model: Nullable(Type.String()),
  filesWrite: Strings,
  hb: OrNull(
    Type.Object({
      status: Type.String(),
      currentAction: Type.String(),
      currentFile: Type.Null(),
      filesChangedCount: Type.Integer(),
      sequence: Type.Integer(),
      timestamp: Type.String(),
      ageMs: Type.Integer(),
      stale: Type.Boolean()
    })
  )
})

export const LiveSnapshot = Type.Object({
  schemaVersion: Type.Literal(1),
  generatedAt: Type.String(),
  revision: Type.Integer({ minimum: 0 }),
  lifecycle: Type.Object({
    schemaVersion: Type.Literal(1),
    lifecycle: Lifecycle,
    active: Type.Boolean(),
    resumable: Type.Boolean(),
    sprintId: Nullable(Type.String()),
    phase: Nullable(Type.String()),
    status: Type.String(),
    reason: Nullable(Type.String()),
    recoveryCommand: Nullable(Type.String()),
    finalizeCommand: Type.Null(),
    coordinator: Type.String(),
    conflicts: Type.Array(Type.Object({ surface: Type.String(), sprintId: Type.String(), value: Type.String() }))
  }),
  sprintId: Nullable(Type.String()),
  phase: Nullable(Type.String()),
  workers: Type.Array(LiveWorker),
  locks: Type.Array(
    Type.Object({ filePath: Type.String(), ownerWorkerId: Type.String(), acquiredAt: Type.String(), taskId: Type.String() })
  ),
  active: Type.Boolean()
})

export const JobBody = Type.Object({
  id: Type.Integer(),
  sprintId: Type.String(),
  status: Type.String(),
  pid: Nullable(Type.Integer()),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.String())
})
