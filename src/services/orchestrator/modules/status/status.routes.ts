import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { ACCESS } from '../../gates/route-access.js'
import type { RunViews } from '../../views/run-views.js'
import { ErrorBody } from '../tasks/tasks.schemas.js'
import { HistoryRow, JobBody, LiveSnapshot, SprintSummary, StatusBody } from './status.schemas.js'
import type { StatusService } from './status.service.js'

const tags = ['status']
const config = { access: ACCESS.bearer }

/** Read routes over the run: status, the newest sprint, history, the live view, jobs (the live stream is in streams/). */
export function statusRoutes({ status, views }: { status: StatusService; views: RunViews }) {
  return async function register(app: App) {
    app.get(
      '/api/status',
      {
        config,
        schema: {
          tags,
          summary: 'Reconciled run status (idle, or the run with its lifecycle, progress, workers and alerts)',
          response: { 200: StatusBody }
        }
      },
      async (_request, reply) => views.send(reply, 'status', () => status.status())
    )

    app.get(
      '/api/sprint',
      {
        config,
        schema: { tags, summary: 'The newest sprint: metrics and one line per task', response: { 200: SprintSummary, 404: ErrorBody } }
      },
      async (_request, reply) => views.send(reply, 'sprint', () => status.sprint())
    )

    app.get(
      '/api/history',
      { config, schema: { tags, summary: 'Every sprint of the project, newest first', response: { 200: Type.Array(HistoryRow) } } },
      () => status.history()
    )

    app.get(
      '/api/sprint/live',
      {
        config,
        schema: {
          tags,
          summary: 'Run-inspector snapshot: canonical lifecycle, every task of the run with its heartbeat, revision',
          response: { 200: LiveSnapshot }
        }
      },
      async (_request, reply) => views.send(reply, 'sprint/live', () => status.live())
    )

    app.get(
      '/api/job/:id',
      {
        config,
        schema: {
          tags,
          summary: 'A detached job as it really is (reconciled against its process)',
          params: Type.Object({ id: Type.String() }),
          response: { 200: JobBody, 404: ErrorBody }
        }
      },
      (request) => status.job(request.params.id)
    )
  }
}
