import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { ACCESS } from '../../gates/route-access.js'
import type { RunViews } from '../../views/run-views.js'
import { assertTaskId, parseTailLines, type TasksService } from './tasks.service.js'
import { ErrorBody, TaskDetail, TaskView, WorkerLog, WorkerView } from './tasks.schemas.js'

const tags = ['tasks']
const config = { access: ACCESS.bearer }

/** Read routes over tasks: the list, one task in detail, heartbeats and worker logs (their stream is in streams/). */
export function taskRoutes({ tasks, views }: { tasks: TasksService; views: RunViews }) {
  return async function register(app: App) {
    app.get(
      '/api/tasks',
      {
        config,
        schema: {
          tags,
          summary: 'Tasks of the newest sprint (or of ?sprint=<id>), in plan order',
          querystring: Type.Object({ sprint: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
          response: { 200: Type.Array(TaskView), 404: ErrorBody }
        }
      },
      async (request, reply) => {
        const sprint = request.query.sprint
        return views.send(reply, sprint === undefined ? 'tasks' : `tasks?sprint=${sprint}`, () => tasks.listTasks(sprint))
      }
    )

    app.get(
      '/api/sprint/task/:id',
      {
        config,
        schema: {
          tags,
          summary: 'One task: its plan, last result, heartbeat, current run and log tail (tailLines 1..200, default 40)',
          params: Type.Object({ id: Type.String() }),
          querystring: Type.Object({ tailLines: Type.Optional(Type.String()) }),
          response: { 200: TaskDetail, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody }
        }
      },
      (request) => {
        assertTaskId(request.params.id)
        return tasks.taskDetail(request.params.id, parseTailLines(request.query.tailLines))
      }
    )

    app.get(
      '/api/workers',
      {
        config,
        schema: { tags, summary: 'Heartbeats of the newest sprint (stale after 120 s)', response: { 200: Type.Array(WorkerView) } }
      },
      async (_request, reply) => views.send(reply, 'workers', () => tasks.workers())
    )

    app.get(
      '/api/worker/:taskId/log',
      {
        config,
        schema: {
          tags,
          summary: 'The worker log of a task (its last 64,000 characters)',
          params: Type.Object({ taskId: Type.String() }),
          response: { 200: WorkerLog, 403: ErrorBody, 404: ErrorBody }
        }
      },
      (request) => {
        assertTaskId(request.params.taskId)
        return tasks.workerLog(request.params.taskId)
      }
    )
  }
}
