import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import type { EngineService } from '../../engine/engine.service.js'
import { orchestratorError } from '../../errors.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import type { ProjectConfigService } from './config.service.js'
import * as schemas from './control.schemas.js'
import { renderPlanned } from './control.render.js'

const WORKER_ID = /^[a-zA-Z0-9-]+$/
const tags = ['control']
const control = { access: ACCESS.control }
const read = { access: ACCESS.bearer }
const refusals = { 403: schemas.ErrorBody, 409: schemas.ErrorBody, 422: schemas.ErrorBody }

/**
 * Routes that change the run: plan, start, kill, cleanup, directives and config. Each is a
 * control mutation: refused to API callers while control mutations are off (policy.ts).
 */
export function controlRoutes(deps: { engine: EngineService; projectConfig: ProjectConfigService }) {
  const { engine, projectConfig } = deps
  return async function register(app: App) {
    app.get(
      '/api/directives',
      { config: read, schema: { tags, summary: 'DIRECTIVES.md ("" when missing)', response: { 200: schemas.DirectivesBody } } },
      () => ({ content: engine.readDirectives() })
    )

    for (const url of ['/api/set-directives', '/api/directives']) {
      app.post(
        url,
        {
          config: control,
          schema: {
            tags,
            summary: 'Replace DIRECTIVES.md',
            body: schemas.DirectivesWrite,
            response: { 200: schemas.DirectivesWritten, 400: schemas.ErrorBody, 403: schemas.ErrorBody }
          }
        },
        (request) => {
          const content = request.body?.content
          if (typeof content !== 'string' || content.trim() === '') throw orchestratorError('ORCH_DIRECTIVES_MISSING')
          return { success: true, ...engine.writeDirectives(callerOf(request), content) }
        }
      )
    }

    app.post(
      '/api/plan',
      {
        config: control,
        schema: {
          tags,
          summary: 'Plan a sprint from DIRECTIVES.md (or the directive given)',
          body: schemas.PlanBody,
          response: { 200: schemas.PlannedBody, ...refusals, 503: schemas.ErrorBody }
        }
      },
      async (request) => {
        const body = request.body ?? {}
        const input = {
          ...(body.mode ? { mode: body.mode } : {}),
          ...(body.directive ? { directive: body.directive } : {}),
          ...(body.force === true ? { force: true } : {})
        }
        return renderPlanned(await engine.plan(callerOf(request), input))
      }
    )

    app.post(
      '/api/start',
      {
        config: control,
        schema: {
          tags,
          summary: 'Start the planned sprint as a detached job (resume: continue an orphaned or killed one)',
          body: schemas.StartBody,
          response: { 200: schemas.StartedBody, 202: schemas.StartedBody, 400: schemas.ErrorBody, ...refusals }
        }
      },
      async (request, reply) => {
        // Approvals are for humans to decide: a start cannot approve its tasks in advance.
        if (request.body?.autoApprove === true) {
          throw orchestratorError('VALIDATION_FAILED', 'autoApprove is not supported: tasks that need approval wait for a human decision')
        }
        const caller = callerOf(request)
        const started = await engine.start(caller, { owner: { tenantId: caller.tenantId }, resume: request.body?.resume === true })
        const { job } = started
        return reply.code(started.created ? 202 : 200).send({
          jobId: job.id,
          sprintId: job.sprintId,
          status: job.status,
          created: started.created,
          pid: started.pid,
          missionId: started.missionId
        })
      }
    )

    app.post(
      '/api/kill/all',
      {
        config: control,
        schema: {
          tags,
          summary: 'Stop the running job and every agent it started',
          response: { 200: schemas.KilledAllBody, 403: schemas.ErrorBody }
        }
      },
      async (request) => {
        const result = await engine.killAll(callerOf(request))
        return {
          success: true,
          killed: result.killed ? result.cancelledTasks.length : 0,
          jobId: result.jobId,
          killedPids: result.killedPids
        }
      }
    )

    app.post(
      '/api/kill/:id',
      {
        config: control,
        schema: {
          tags,
          summary: 'Stop one task (its agent process group)',
          params: schemas.WorkerParams,
          response: { 200: schemas.KilledTaskBody, 400: schemas.ErrorBody, 403: schemas.ErrorBody }
        }
      },
      async (request) => {
        if (!WORKER_ID.test(request.params.id)) throw orchestratorError('BAD_REQUEST', 'Invalid worker id')
        const result = await engine.killTask(callerOf(request), request.params.id)
        return { success: true, killed: result.killed, taskId: result.taskId, killedPids: result.killedPids }
      }
    )

    app.post(
      '/api/cleanup',
      {
        config: control,
        schema: {
          tags,
          summary: 'Remove finished worktrees; work that is uncommitted or unmerged is kept and reported',
          response: { 200: schemas.CleanupBody, ...refusals }
        }
      },
      async (request) => {
        const result = await engine.cleanup(callerOf(request))
        return { success: true, removed: result.removed, kept: result.kept }
      }
    )

    app.get(
      '/api/config',
      {
        config: read,
        schema: {
          tags: ['config'],
          summary: 'The project file .quartet/config.json as written',
          response: { 200: schemas.ConfigObject, 404: schemas.ErrorBody }
        }
      },
      () => projectConfig.file()
    )

    app.get(
      '/api/config/defaults',
      { config: read, schema: { tags: ['config'], summary: 'Built-in defaults', response: { 200: schemas.ConfigObject } } },
      () => projectConfig.defaults()
    )

    app.post(
      '/api/config',
      {
        config: control,
        schema: {
          tags: ['config'],
          summary: 'Deep-merge into .quartet/config.json (null deletes a key); validated, written atomically',
          body: Type.Unknown(),
          response: { 200: schemas.ConfigObject, 400: schemas.ErrorBody, 403: schemas.ErrorBody, 422: schemas.ErrorBody }
        }
      },
      (request) => projectConfig.merge(callerOf(request), request.body)
    )
  }
}
