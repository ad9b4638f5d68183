import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { ACCESS } from '../../gates/route-access.js'
import { DiffBody, FLOW_ID, ProposalBody, StatusBody } from './git.schemas.js'
import type { GitService } from './git.service.js'

const tags = ['git']
const config = { access: ACCESS.bearer }

/** Read-only repository views; a project that is not a git repository answers with note "not-a-git-repo". */
export function gitRoutes({ git }: { git: GitService }) {
  return async function register(app: App) {
    app.get(
      '/api/git/status',
      {
        config,
        schema: { tags, summary: "Branch, ahead/behind, porcelain entries, and the engine's task branches", response: { 200: StatusBody } }
      },
      () => git.status()
    )

    app.get(
      '/api/git/diff',
      {
        config,
        schema: {
          tags,
          summary: 'git diff HEAD (or --staged with staged=1|true), capped at 64,000 characters',
          querystring: Type.Object({ staged: Type.Optional(Type.String()) }),
          response: { 200: DiffBody }
        }
      },
      (request) => git.diff(request.query.staged === '1' || request.query.staged === 'true')
    )

    app.get(
      '/api/git/proposal',
      {
        config,
        schema: {
          tags,
          summary: 'Changed files with line counts and a suggested commit message',
          querystring: Type.Object({
            flowId: Type.Optional(Type.String({ pattern: FLOW_ID.source })),
            intent: Type.Optional(Type.String({ maxLength: 2000 }))
          }),
          response: { 200: ProposalBody }
        }
      },
      (request) => git.proposal({ flowId: request.query.flowId, intent: request.query.intent })
    )
  }
}
