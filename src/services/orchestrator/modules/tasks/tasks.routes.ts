import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import type { OrchestratorState } from '../../app.js'
import { orchestratorError } from '../../errors.js'
import { closeStreamsOnShutdown, openSse } from '../../streams/sse.js'
import { streamTaskOutput } from './output-stream.js'
import { assertTaskId, createTasksService, parseTailLines } from './tasks.service.js'
import { ErrorBody, TaskDetail, TaskView, WorkerLog, WorkerView } from './tasks.schemas.js'

const tags = ['tasks']

/** Read routes over tasks: the list, one task in detail, heartbeats, worker logs and the live output stream. */
export function taskRoutes(state: OrchestratorState) {
  const service = createTasksService(state)
  return async function register(app: App) {
    const track = closeStreamsOnShutdown(app)

    app.get<{ Querystring: { sprint?: string } }>(
      '/api/tasks',
      {
        schema: {
          tags,
          summary: 'Tasks of the newest sprint (or of ?sprint=<id>), in plan order',
          querystring: Type.Object({ sprint: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
          response: { 200: Type.Array(TaskView), 404: ErrorBody }
        }
      },
      async (request, reply) => {
        const sprint = request.query.sprint
        return state.views.send(reply, sprint === undefined ? 'tasks' : `tasks?sprint=${sprint}`, () => service.listTasks(sprint))
      }
    )

    app.get<{ Params: { id: string }; Querystring: { tailLines?: string } }>(
      '/api/sprint/task/:id',
      {
        schema: {
          tags,
          summary: 'One task: its plan, last result, heartbeat, current run and log tail (tailLines 1..200, default 40)',
          querystring: Type.Object({ tailLines: Type.Optional(Type.String()) }),
          response: { 200: TaskDetail, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody }
        }
      },
      async (request) => {
        assertTaskId(request.params.id)
        return service.taskDetail(request.params.id, parseTailLines(request.query.tailLines))
      }
    )

    app.get(
      '/api/workers',
      {
        schema: { tags, summary: 'Heartbeats of the newest sprint (stale after 120 s)', response: { 200: Type.Array(WorkerView) } }
      },
      async (_request, reply) => state.views.send(reply, 'workers', () => service.workers())
    )

    app.get<{ Params: { taskId: string } }>(
      '/api/worker/:taskId/log',
      {
        schema: {
          tags,
          summary: 'The worker log of a task (its last 64,000 characters)',
          response: { 200: WorkerLog, 403: ErrorBody, 404: ErrorBody }
        }
      },
      async (request) => {
        assertTaskId(request.params.taskId)
        return service.workerLog(request.params.taskId)
      }
    )

    app.get<{ Querystring: { taskId?: string; sprintId?: string } }>(
      '/api/output-stream',
      {
        exposeHeadRoute: false,
        schema: {
          tags,
          summary: "SSE: snapshot of a task's output, then new output lines, then done when the task stops",
          querystring: Type.Object({ taskId: Type.Optional(Type.String()), sprintId: Type.Optional(Type.String()) })
        }
      },
      async (request, reply) => {
        const { taskId, sprintId } = request.query
        if (!taskId) throw orchestratorError('BAD_REQUEST', 'Missing taskId')
        assertTaskId(taskId)
        const task = await service.findTask(taskId, 'Task not found')
        if (sprintId !== undefined && task.sprint_id !== sprintId) throw orchestratorError('ORCH_TASK_NOT_FOUND', 'Task not found')
        const connection = openSse(request, reply)
        track(connection)
        streamTaskOutput(connection, task, {
          projectId: state.projectId,
          repositories: state.repositories,
          runControl: state.runControl,
          logFile: service.logFileOf(task),
          log: request.log
        })
      }
    )
  }
}
