import { Type } from 'typebox'

const Note = Type.Optional(Type.String())
const TaskBranch = Type.Object({
  branch: Type.String(),
  sprintId: Type.Union([Type.String(), Type.Null()]),
  taskId: Type.Union([Type.String(), Type.Null()]),
  head: Type.String(),
  ahead: Type.Integer(),
  /** Its worktree holds uncommitted or untracked changes (such a branch is never reported merged). */
  uncommitted: Type.Boolean(),
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
  taskBranches: Type.Array(TaskBranch),
  target: Type.Union([Type.String(), Type.Null()], { description: 'the branch checked out (null: detached HEAD or not a repository)' }),
  tasks: Type.Array(
    Type.Object({
      taskId: Type.String(),
      title: Type.String(),
      branch: Type.String(),
      head: Type.String(),
      state: Type.Union([Type.Literal('READY'), Type.Literal('BEHIND'), Type.Literal('CONFLICT'), Type.Literal('MERGED')], {
        description:
          'READY: contains the target; BEHIND: the target moved since, merges cleanly; CONFLICT: see files; MERGED: already in the target'
      }),
      files: Type.Array(Type.String(), { description: 'conflicted files (CONFLICT)' }),
      behind: Type.Integer({ description: 'commits on the target the branch lacks' })
    }),
    { description: "the newest sprint's DONE tasks with a branch, each merged against the target in the object store only" }
  )
})
export const FLOW_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
