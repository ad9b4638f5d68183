import { Type, type Static, type TSchema } from 'typebox'

function Nullable<T extends TSchema>(schema: T) {
  const raw = schema as unknown as Record<string, unknown>
  return Type.Unsafe<Static<T> | null>({ ...raw, type: [raw.type as string, 'null'] })
}

export const ErrorBody = Type.Object({ error: Type.String() })
export const TaskParams = Type.Object({ id: Type.String() })
const FileStat = Type.Object({ path: Type.String(), insertions: Type.Integer(), deletions: Type.Integer() })

export const TaskDiff = Type.Object({
  taskId: Type.String(),
  sprintId: Type.String(),
  title: Type.String(),
  status: Type.String(),
  branch: Nullable(Type.String()),
  base: Nullable(Type.String()),
  head: Nullable(Type.String()),
  files: Type.Array(FileStat),
  insertions: Type.Integer(),
  deletions: Type.Integer(),
  diff: Type.String({ description: 'the unified diff, cut at 64 000 characters (truncated: true)' }),
  truncated: Type.Boolean(),
  diffBytes: Type.Integer({ description: 'the size of the whole unified diff' }),
  note: Type.Optional(Type.String()),
  resolution: Type.Optional(
    Type.Object(
      {
        mergeId: Type.String(),
        target: Type.String(),
        commit: Type.String({ description: 'the resolution commit, the head of the branch' }),
        before: Nullable(Type.String({ description: 'the branch head before the resolution (refs/quartet-resolve/<merge>-<n>-before)' })),
        files: Type.Array(Type.String(), { description: 'the files that conflicted' }),
        reason: Nullable(Type.String()),
        land: Type.String({ description: 'the command that lands it after review' }),
        undo: Nullable(Type.String({ description: 'the command that puts the branch back where it was before the resolution' }))
      },
      {
        description:
          'present while an agent-resolved conflict waits on the branch for review; base is then the merge base with the target, ' +
          "so the diff is the task's changes and the resolution"
      }
    )
  )
})

export const MergeBody = Type.Object(
  {
    sprintId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    flowId: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' })),
    taskIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 1000 })),
    into: Type.Optional(Type.String({ minLength: 1, maxLength: 250, pattern: '^[A-Za-z0-9._/-]+$' })),
    strategy: Type.Optional(Type.Union([Type.Literal('merge'), Type.Literal('squash'), Type.Literal('rebase')])),
    resolveWith: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'a configured command agent: each CONFLICT goes to it; its resolution stays on the task branch (item RESOLVED) ' +
          'for review, and a later merge lands it through the same check'
      })
    )
  },
  { additionalProperties: false }
)

export const MergeParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) })

export const MergeRun = Type.Object({
  id: Type.String(),
  sprintId: Type.String(),
  target: Type.String(),
  strategy: Type.String(),
  status: Type.String({
    description: 'running | done | failed | interrupted (failed: not every task merged, a task RESOLVED and waiting for review included)'
  }),
  error: Nullable(Type.String()),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  items: Type.Array(
    Type.Object({
      taskId: Type.String(),
      status: Type.String({
        description:
          'QUEUED | MERGING | MERGED | CONFLICT | RESOLVED | CHECK_FAILED | SKIPPED | INTERRUPTED ' +
          '(RESOLVED: an agent resolved the conflict on the task branch, commitSha; it waits for review and lands on a later merge)'
      }),
      files: Type.Array(Type.String()),
      commitSha: Nullable(Type.String()),
      reason: Nullable(Type.String())
    })
  )
})

export const MergeListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'the `next` of the previous page' }))
  },
  { additionalProperties: false }
)

export const MergeList = Type.Object({
  runs: Type.Array(MergeRun, { description: 'newest first' }),
  next: Nullable(Type.String({ description: 'pass as `before` for the next (older) page; null on the last page' }))
})
