import { Type } from 'typebox'

const Note = Type.Optional(Type.String())
const TaskBranch = Type.Object({
  branch: Type.String(),
  sprintId: Type.Union([Type.String(), Type.Null()]),
  taskId: Type.Union([Type.String(), Type.Null()]),
  head: Type.String(),
  ahead: Type.Integer(),
  merged: Type.Boolean(),
  commits: Type.Array(Type.Object({ sha: Type.String(), subject: Type.String() }))
})
export const StatusBody = Type.Object({
  note: Note,
  branch: Type.Union([Type.String(), Type.Null()]),
  ahead: Type.Integer(),
  behind: Type.Integer(),
  entries: Type.Array(Type.Object({ path: Type.String(), code: Type.String() })),
  clean: Type.Boolean(),
  taskBranches: Type.Array(TaskBranch)
})
export const DiffBody = Type.Object({ note: Note, text: Type.String(), truncated: Type.Boolean() })
export const ProposalBody = Type.Object({
  note: Note,
  files: Type.Array(Type.Object({ path: Type.String(), insertions: Type.Integer(), deletions: Type.Integer() })),
  insertions: Type.Integer(),
  deletions: Type.Integer(),
  suggestedMessage: Type.String(),
  taskBranches: Type.Array(TaskBranch)
})
export const FLOW_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
