import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import type { EngineService } from '../../engine/engine.service.js'
import { orchestratorError } from '../../errors.js'
import { DEFAULT_PROJECT_CONFIG } from '../../project/config-schema.js'
import { loadProjectConfig, mergeProjectConfig } from '../../project/config.js'
import { principalOf } from '../process/principal.js'

export interface ControlDeps {
  engine: EngineService
  projectRoot: string
}

const WORKER_ID = /^[a-zA-Z0-9-]+$/
const Anything = Type.Unknown()
const ErrorBody = Type.Object({ error: Type.String() })

/**
 * Routes that change the run: plan, start, kill, cleanup, directives and config. The
 * control-mutation gate (registered before dispatch) decides whether they may run over HTTP.
 */
export function controlRoutes(deps: ControlDeps) {
  const { engine } = deps
  return async function register(app: App) {
    app.get(
      '/api/directives',
      {
        schema: {
          tags: ['control'],
          summary: 'DIRECTIVES.md ("" when missing)',
          response: { 200: Type.Object({ content: Type.String() }) }
        }
      },
      async () => ({ content: engine.readDirectives() })
    )

    for (const url of ['/api/set-directives', '/api/directives']) {
      app.post(
        url,
        {
          schema: {
            tags: ['control'],
            summary: 'Replace DIRECTIVES.md',
            body: Type.Optional(Type.Object({ content: Type.Optional(Type.Unknown()) })),
            response: { 200: Type.Object({ success: Type.Boolean(), taskCount: Type.Integer() }), 400: ErrorBody }
          }
        },
        async (request) => {
          const content = request.body?.content
          if (typeof content !== 'string' || content.trim() === '') throw orchestratorError('ORCH_DIRECTIVES_MISSING')
          return { success: true, ...engine.writeDirectives(content) }
        }
      )
    }

    app.post(
      '/api/plan',
      {
        schema: {
          tags: ['control'],
          summary: 'Plan a sprint from DIRECTIVES.md (or the directive given)',
          body: Type.Optional(
            Type.Object({
              directive: Type.Optional(Type.String({ minLength: 1, maxLength: 200_000 })),
              mode: Type.Optional(Type.Union([Type.Literal('ai'), Type.Literal('structured'), Type.Literal('auto')]))
            })
          )
        }
      },
      async (request) => {
        const planned = await engine.plan({
          ...(request.body?.mode ? { mode: request.body.mode } : {}),
          ...(request.body?.directive ? { directive: request.body.directive } : {})
        })
        return {
          id: planned.sprint.id,
          number: planned.sprint.number,
          title: planned.sprint.title,
          status: planned.sprint.status,
          mode: planned.mode,
          warnings: planned.warnings,
          tasks: planned.tasks.map((t) => ({
            id: t.id,
            key: t.key,
            title: t.title,
            status: t.status,
            priority: t.priority,
            dependencies: JSON.parse(t.dependencies) as string[],
            agent: t.agent
          }))
        }
      }
    )

    app.post(
      '/api/start',
      {
        schema: {
          tags: ['control'],
          summary: 'Start the planned sprint as a detached job (resume: continue an orphaned or killed one)',
          body: Type.Optional(Type.Object({ resume: Type.Optional(Type.Boolean()), autoApprove: Type.Optional(Type.Boolean()) }))
        }
      },
      async (request, reply) => {
        const started = await engine.start({ owner: { tenantId: principalOf(request).tenantId }, resume: request.body?.resume === true })
        return reply.code(started.created ? 202 : 200).send({
          jobId: started.job.id,
          sprintId: started.job.sprint_id,
          status: started.job.status,
          created: started.created,
          pid: started.pid,
          missionId: started.missionId
        })
      }
    )

    app.post('/api/kill/all', { schema: { tags: ['control'], summary: 'Stop the running job and every agent it started' } }, async () => {
      const result = await engine.killAll()
      return { success: true, killed: result.killed ? result.cancelledTasks.length : 0, jobId: result.jobId, killedPids: result.killedPids }
    })

    app.post<{ Params: { id: string } }>(
      '/api/kill/:id',
      { schema: { tags: ['control'], summary: 'Stop one task (its agent process group)' } },
      async (request) => {
        if (!WORKER_ID.test(request.params.id)) throw orchestratorError('BAD_REQUEST', 'Invalid worker id')
        const result = await engine.killTask(request.params.id)
        return { success: true, killed: result.killed, taskId: result.taskId, killedPids: result.killedPids }
      }
    )

    app.post(
      '/api/cleanup',
      { schema: { tags: ['control'], summary: 'Remove finished worktrees; work that is uncommitted or unmerged is kept and reported' } },
      async () => {
        const result = await engine.cleanup()
        return { success: true, removed: result.removed, kept: result.kept }
      }
    )

    app.get('/api/config', { schema: { tags: ['config'], summary: 'The project file .quartet/config.json as written' } }, async () => {
      const loaded = loadProjectConfig(deps.projectRoot)
      if (!loaded.exists || loaded.raw === null) throw orchestratorError('ORCH_CONFIG_NOT_FOUND')
      return loaded.raw
    })

    app.get('/api/config/defaults', { schema: { tags: ['config'], summary: 'Built-in defaults' } }, async () => DEFAULT_PROJECT_CONFIG)

    app.post(
      '/api/config',
      {
        schema: {
          tags: ['config'],
          summary: 'Deep-merge into .quartet/config.json (null deletes a key); validated, written atomically',
          body: Anything
        }
      },
      async (request) => {
        if (request.body === null || typeof request.body !== 'object' || Array.isArray(request.body))
          throw orchestratorError('VALIDATION_FAILED', 'the body must be a JSON object')
        const merged = mergeProjectConfig(deps.projectRoot, request.body)
        if (!merged.ok)
          throw orchestratorError(
            'ORCH_CONFIG_INVALID',
            `invalid configuration: ${merged.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
            { details: merged.errors.map((e) => ({ pointer: e.path, message: e.message })) }
          )
        return merged.raw
      }
    )
  }
}
