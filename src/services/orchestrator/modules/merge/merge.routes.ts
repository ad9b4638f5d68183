import type { App } from '../../../../core/http/server.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import type { MergeRun } from '../../state/merges.repository.js'
import type { MergeService } from './merge.service.js'
import * as schemas from './merge.schemas.js'
import type { ReviewService } from './review.service.js'

const tags = ['merge']

/** Review of task work (and, with the merge queue, its landing). */
function renderRun(run: MergeRun) {
  const { projectId: _p, pid: _pid, hostname: _h, ...rest } = run
  return { ...rest, items: run.items.map(({ taskId, status, files, commitSha, reason }) => ({ taskId, status, files, commitSha, reason })) }
}

export function mergeRoutes(deps: { review: ReviewService; merges: MergeService }) {
  return async function register(app: App) {
    app.get(
      '/api/sprint/task/:id/diff',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: "A task's diff against the base its worktree was made from: files, insertions, deletions, unified diff (capped)",
          params: schemas.TaskParams,
          response: { 200: schemas.TaskDiff, 403: schemas.ErrorBody, 404: schemas.ErrorBody }
        }
      },
      async (request) => deps.review.taskDiff(request.params.id)
    )

    app.post(
      '/api/merge',
      {
        config: { access: ACCESS.control },
        schema: {
          tags,
          summary: 'Queue the DONE tasks of a sprint (default the newest) or a flow for merging into a branch (default the current one)',
          body: schemas.MergeBody,
          response: { 202: schemas.MergeRun, 400: schemas.ErrorBody, 404: schemas.ErrorBody, 409: schemas.ErrorBody }
        }
      },
      async (request, reply) => {
        const run = await deps.merges.start(callerOf(request), request.body, (error) =>
          request.log.error({ err: error }, 'merge queue failed')
        )
        return reply.code(202).send(renderRun(run))
      }
    )

    app.get(
      '/api/merge',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: 'The merge queue: its runs, newest first, each with its per-task states and conflicted files (paginated)',
          querystring: schemas.MergeListQuery,
          response: { 200: schemas.MergeList, 400: schemas.ErrorBody, 404: schemas.ErrorBody }
        }
      },
      async (request) => {
        const { limit = 20, before } = request.query
        const page = await deps.merges.list({ limit, ...(before !== undefined ? { before } : {}) })
        return { runs: page.runs.map(renderRun), next: page.next }
      }
    )

    app.get(
      '/api/merge/:id',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: "A merge queue run's progress, per task",
          params: schemas.MergeParams,
          response: { 200: schemas.MergeRun, 404: schemas.ErrorBody }
        }
      },
      async (request) => renderRun(await deps.merges.get(request.params.id))
    )
  }
}
