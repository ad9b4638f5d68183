import { Type } from 'typebox'
import type { Guard } from '../../../../core/http/guard.js'
import type { App } from '../../../../core/http/server.js'
import type { Caller } from '../../access.js'
import { idParams, PARAMS_NOTE, security, userParams, type Compat } from '../../http/jsonapi.js'
import { createTourRenderer } from './tours.render.js'
import { CreateTopLevelTourBody, CreateTourBody, tourResponses, ToursQuery, UpdateTourBody, userTourIdParams } from './tours.schemas.js'
import type { ToursService } from './tours.service.js'

export interface ToursRouteDeps {
  tours: ToursService
  caller: Guard<Caller>
  compat: Compat
}

/** Tours, at /tour and nested under /user/{user_id}. */
export function toursRoutes({ tours, caller, compat }: ToursRouteDeps) {
  const R = tourResponses(compat)
  const renderTour = createTourRenderer(compat)
  return async function register(app: App) {
    app.post(
      '/user/:user_id/tour',
      {
        schema: {
          tags: ['tours'],
          summary: 'Create a tour (creator_id defaults to user_id); links the creator',
          description: PARAMS_NOTE,
          security,
          params: userParams,
          body: CreateTourBody,
          response: { 200: R.tour }
        }
      },
      async (request) => ({ data: renderTour(await tours.create(caller.of(request), request.body, Number(request.params.user_id))) })
    )

    app.post(
      '/tour',
      {
        schema: {
          tags: ['tours'],
          summary: 'Create a tour for creator_id; links the creator',
          description: PARAMS_NOTE,
          security,
          body: CreateTopLevelTourBody,
          response: { 200: R.tour }
        }
      },
      async (request) => ({ data: renderTour(await tours.create(caller.of(request), request.body)) })
    )

    app.get(
      '/tour',
      {
        schema: {
          tags: ['tours'],
          summary: "A user's tours (created or joined)",
          security,
          querystring: ToursQuery,
          response: { 200: R.tours }
        }
      },
      async (request) => ({ data: (await tours.listForUser(caller.of(request), request.query.user_id)).map(renderTour) })
    )

    app.get(
      '/user/:user_id/tour',
      {
        schema: { tags: ['tours'], summary: "A user's tours (created or joined)", security, params: userParams, response: { 200: R.tours } }
      },
      async (request) => ({ data: (await tours.listForUser(caller.of(request), Number(request.params.user_id))).map(renderTour) })
    )

    for (const [url, params] of [
      ['/tour/:id', idParams],
      ['/user/:user_id/tour/:id', userTourIdParams]
    ] as const) {
      app.get(
        url,
        {
          schema: { tags: ['tours'], summary: 'One tour', security, params, response: { 200: R.tour } }
        },
        async (request) => ({ data: renderTour(await tours.get(caller.of(request), Number(request.params.id))) })
      )

      for (const method of ['PATCH', 'PUT'] as const) {
        app.route({
          method,
          url,
          schema: {
            tags: ['tours'],
            summary: 'Update a tour (members)',
            description: PARAMS_NOTE,
            security,
            params,
            body: UpdateTourBody,
            response: { 202: R.tour }
          },
          handler: async (request, reply) => {
            const tour = await tours.update(caller.of(request), Number(request.params.id), request.body)
            return reply.code(202).send({ data: renderTour(tour) })
          }
        })
      }

      app.delete(
        url,
        {
          schema: {
            tags: ['tours'],
            summary: 'Delete a tour with its plans and members (creator only)',
            security,
            params,
            response: { 204: Type.Null() }
          }
        },
        async (request, reply) => {
          await tours.delete(caller.of(request), Number(request.params.id))
          return reply.code(204).send(null)
        }
      )
    }
  }
}
