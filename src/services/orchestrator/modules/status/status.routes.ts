import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import type { OrchestratorState } from '../../app.js'
import { closeStreamsOnShutdown, openSse } from '../../streams/sse.js'
import { ErrorBody } from '../tasks/tasks.schemas.js'
import { parseSinceRevision, streamLiveSnapshots } from './live-stream.js'
import { HistoryRow, JobBody, LiveSnapshot, SprintSummary, StatusBody } from './status.schemas.js'
import { createStatusService } from './status.service.js'

const tags = ['status']

/** Read routes over the run: status, the newest sprint, history, the live view (and its stream), jobs. */
export function statusRoutes(state: OrchestratorState) {
  const service = createStatusService(state)
  return async function register(app: App) {
    const track = closeStreamsOnShutdown(app)

    app.get(
      '/api/status',
      {
        schema: {
          tags,
          summary: 'Reconciled run status (idle, or the run with its lifecycle, progress, workers and alerts)',
          response: { 200: StatusBody }
        }
      },
      async (_request, reply) => state.views.send(reply, 'status', () => service.status())
    )

    app.get(
      '/api/sprint',
      {
        schema: { tags, summary: 'The newest sprint: metrics and one line per task', response: { 200: SprintSummary, 404: ErrorBody } }
      },
      async (_request, reply) => state.views.send(reply, 'sprint', () => service.sprint())
    )

    app.get(
      '/api/history',
      {
        schema: { tags, summary: 'Every sprint of the project, newest first', response: { 200: Type.Array(HistoryRow) } }
      },
      async () => service.history()
    )

    app.get(
      '/api/sprint/live',
      {
        schema: {
          tags,
          summary: 'Run-inspector snapshot: canonical lifecycle, every task of the run with its heartbeat, revision',
          response: { 200: LiveSnapshot }
        }
      },
      async (_request, reply) => state.views.send(reply, 'sprint/live', () => service.live())
    )

    app.get<{ Querystring: { sinceRevision?: string } }>(
      '/api/sprint/live/stream',
      {
        exposeHeadRoute: false,
        schema: {
          tags,
          summary: 'SSE: `snapshot` whenever the revision rises above sinceRevision, `ping` every 30 s',
          querystring: Type.Object({ sinceRevision: Type.Optional(Type.String()) })
        }
      },
      async (request, reply) => {
        const sinceRevision = parseSinceRevision(request.query.sinceRevision)
        const connection = openSse(request, reply)
        track(connection)
        streamLiveSnapshots(connection, service, { sinceRevision, log: request.log })
      }
    )

    app.get<{ Params: { id: string } }>(
      '/api/job/:id',
      {
        schema: {
          tags,
          summary: 'A detached job as it really is (reconciled against its process)',
          response: { 200: JobBody, 404: ErrorBody }
        }
      },
      async (request) => service.job(request.params.id)
    )
  }
}
