import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import type { OrchestratorState } from '../../app.js'
import { createGitReader } from './git.service.js'

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
const StatusBody = Type.Object({
  note: Note,
  branch: Type.Union([Type.String(), Type.Null()]),
  ahead: Type.Integer(),
  behind: Type.Integer(),
  entries: Type.Array(Type.Object({ path: Type.String(), code: Type.String() })),
  clean: Type.Boolean(),
  taskBranches: Type.Array(TaskBranch)
})
const DiffBody = Type.Object({ note: Note, text: Type.String(), truncated: Type.Boolean() })
const ProposalBody = Type.Object({
  note: Note,
  files: Type.Array(Type.Object({ path: Type.String(), insertions: Type.Integer(), deletions: Type.Integer() })),
  insertions: Type.Integer(),
  deletions: Type.Integer(),
  suggestedMessage: Type.String(),
  taskBranches: Type.Array(TaskBranch)
})
const FLOW_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/** Read-only repository views; a project that is not a git repository answers with note "not-a-git-repo". */
export function gitRoutes(state: OrchestratorState) {
  const reader = createGitReader(state.platform, state.projectRoot)
  return async function register(app: App) {
    app.get(
      '/api/git/status',
      {
        schema: {
          tags: ['git'],
          summary: "Branch, ahead/behind, porcelain entries, and the engine's task branches",
          response: { 200: StatusBody }
        }
      },
      async () => ({ ...(await reader.status()), taskBranches: await reader.taskBranches() })
    )

    app.get(
      '/api/git/diff',
      {
        schema: {
          tags: ['git'],
          summary: 'git diff HEAD (or --staged with staged=1|true), capped at 64,000 characters',
          querystring: Type.Object({ staged: Type.Optional(Type.String()) }),
          response: { 200: DiffBody }
        }
      },
      async (request) => reader.diff(request.query.staged === '1' || request.query.staged === 'true')
    )

    app.get(
      '/api/git/proposal',
      {
        schema: {
          tags: ['git'],
          summary: 'Changed files with line counts and a suggested commit message',
          querystring: Type.Object({
            flowId: Type.Optional(Type.String({ pattern: FLOW_ID.source })),
            intent: Type.Optional(Type.String({ maxLength: 2000 }))
          }),
          response: { 200: ProposalBody }
        }
      },
      async (request) => {
        const latest = await state.repositories.sprints.latest(state.projectId)
        return reader.proposal({
          ...(request.query.flowId ? { flowId: request.query.flowId } : {}),
          ...(request.query.intent ? { intent: request.query.intent } : {}),
          fallbackRunId: latest?.id ?? null
        })
      }
    )
  }
}
