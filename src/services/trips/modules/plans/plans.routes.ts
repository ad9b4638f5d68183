import { Type } from 'typebox'
import type { Guard } from '../../../../core/http/guard.js'
import type { App } from '../../../../core/http/server.js'
import type { Caller } from '../../access.js'
import { idParams, PARAMS_NOTE, security, userTourParams, type Compat } from '../../http/jsonapi.js'
import { createPlanRenderer } from './plans.render.js'
import { CreateTopLevelPlanBody, nestedPlanParams, PlanBody, planResponses } from './plans.schemas.js'
import type { PlansService } from './plans.service.js'

export interface PlansRouteDeps {
  plans: PlansService
  caller: Guard<Caller>
  compat: Compat
}

/** Plans of a tour, nested under /user/{user_id}/tour/{tour_id} and at /plan. */
export function plansRoutes({ plans, caller, compat }: PlansRouteDeps) {
  const R = planResponses(compat)
  const renderPlan = createPlanRenderer(compat)
  return async function register(app: App) {
    app.post(
      '/user/:user_id/tour/:tour_id/plan',
      {
        schema: {
          tags: ['plans'],
          summary: 'Create a plan for a tour (members); absent fields are "nil"',
          description: PARAMS_NOTE,
          security,
          params: userTourParams,
          body: PlanBody,
          response: { 200: R.plan }
        }
      },
      async (request) => ({ data: renderPlan(await plans.create(caller.of(request), Number(request.params.tour_id), request.body)) })
    )

    app.post(
      '/plan',
      {
        schema: {
          tags: ['plans'],
          summary: 'Create a plan for tour_id (members)',
          description: PARAMS_NOTE,
          security,
          body: CreateTopLevelPlanBody,
          response: { 200: R.plan }
        }
      },
      async (request) => ({ data: renderPlan(await plans.create(caller.of(request), request.body.tour_id, request.body)) })
    )

    app.get(
      '/user/:user_id/tour/:tour_id/plan',
      {
        schema: { tags: ['plans'], summary: 'Plans of a tour', security, params: userTourParams, response: { 200: R.plans } }
      },
      async (request) => ({ data: (await plans.listForTour(caller.of(request), Number(request.params.tour_id))).map(renderPlan) })
    )

    for (const [url, params] of [
      ['/plan/:id', idParams],
      ['/user/:user_id/tour/:tour_id/plan/:id', nestedPlanParams]
    ] as const) {
      app.get(
        url,
        {
          schema: { tags: ['plans'], summary: 'One plan', security, params, response: { 200: R.plan } }
        },
        async (request) => ({ data: renderPlan(await plans.get(caller.of(request), Number(request.params.id))) })
      )

      for (const method of ['PATCH', 'PUT'] as const) {
        app.route({
          method,
          url,
          schema: {
            tags: ['plans'],
            summary: 'Update a plan (members)',
            description: PARAMS_NOTE,
            security,
            params,
            body: PlanBody,
            response: { 202: R.plan }
          },
          handler: async (request, reply) => {
            const plan = await plans.update(caller.of(request), Number(request.params.id), request.body)
            return reply.code(202).send({ data: renderPlan(plan) })
          }
        })
      }

      app.delete(
        url,
        {
          schema: { tags: ['plans'], summary: "Delete a plan (the tour's creator)", security, params, response: { 204: Type.Null() } }
        },
        async (request, reply) => {
          await plans.delete(caller.of(request), Number(request.params.id))
          return reply.code(204).send(null)
        }
      )
    }
  }
}
