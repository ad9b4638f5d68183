import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../../core/http/server.js'
import type { Caller } from './access.js'
import type { Renderer } from './render.js'
import {
  CreateTopLevelPlanBody, CreateTopLevelTourBody, CreateTourBody, CreateTourUserBody, CreateUserBody, IdParam,
  PlanBody, ToursQuery, TourUserQuery, UpdateTourBody, UpdateUserBody, responseSchemas
} from './schemas.js'
import type { UsersService } from './modules/users/users.service.js'
import type { ToursService } from './modules/tours/tours.service.js'
import type { PlansService } from './modules/plans/plans.service.js'
import type { MembersService } from './modules/members/members.service.js'

export interface TripsRouteDeps {
  users: UsersService
  tours: ToursService
  plans: PlansService
  members: MembersService
  render: Renderer
  authenticate: (request: FastifyRequest) => Promise<Caller>
}

declare module 'fastify' {
  interface FastifyRequest {
    tripsCaller?: Caller
  }
}

const PARAMS_NOTE = 'Parameters may be sent as query string, JSON body or form body.'
const security = [{ bearer: [] }]

function mergeQueryIntoBody(request: FastifyRequest, _reply: unknown, done: () => void): void {
  const query = request.query as Record<string, unknown>
  const body = request.body
  if (body === undefined || body === null) request.body = { ...query }
  else if (typeof body === 'object' && !Array.isArray(body)) request.body = { ...query, ...(body as Record<string, unknown>) }
  done()
}

function callerOf(request: FastifyRequest): Caller {
  // Set by the onRequest hook of this plugin for every route in it.
  return request.tripsCaller as Caller
}

/** All routes of /api/private/v1: thin handlers that map the request, call a service, render. */
export function tripsRoutes(deps: TripsRouteDeps) {
  const { users, tours, plans, members, render } = deps
  const R = responseSchemas(render.compat)

  return async function register(app: App) {
    app.addHook('onRequest', async (request) => {
      request.tripsCaller = await deps.authenticate(request)
    })

    // Create and update read parameters from the query string as well as the body (as the
    // original Rails API did): merge them, body winning, before schema validation.
    app.addHook('onRoute', (route) => {
      if (route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT') route.preValidation = mergeQueryIntoBody
    })

    const idParams = Type.Object({ id: IdParam })
    const userParams = Type.Object({ user_id: IdParam })
    const userTourParams = Type.Object({ user_id: IdParam, tour_id: IdParam })
    const userTourIdParams = Type.Object({ user_id: IdParam, id: IdParam })
    const nestedPlanParams = Type.Object({ user_id: IdParam, tour_id: IdParam, id: IdParam })

    // ---- users
    app.post('/user', {
      schema: { tags: ['users'], summary: 'Create a user', description: PARAMS_NOTE, security, body: CreateUserBody, response: { 200: R.user } }
    }, async (request) => ({ data: render.user(await users.create(callerOf(request), request.body)) }))

    app.get('/user/:email_address', {
      schema: {
        tags: ['users'], summary: 'Find a user by e-mail address (case-insensitive; a numeric segment is taken as the id)', security,
        params: Type.Object({ email_address: Type.String({ minLength: 1, maxLength: 254 }) }),
        response: { 200: R.userLookup }
      }
    }, async (request) => {
      const user = render.user(await users.lookup(callerOf(request), request.params.email_address))
      return { data: render.compat === 'original' ? [user] : user }
    })

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method, url: '/user/:id',
        schema: { tags: ['users'], summary: 'Update your user', description: PARAMS_NOTE, security, params: idParams, body: UpdateUserBody, response: { 202: R.user } },
        handler: async (request, reply) => {
          const user = await users.update(callerOf(request), Number(request.params.id), request.body)
          return reply.code(202).send({ data: render.user(user) })
        }
      })
    }

    app.delete('/user/:id', {
      schema: { tags: ['users'], summary: 'Delete your user (and your tour memberships)', security, params: idParams, response: { 204: Type.Null() } }
    }, async (request, reply) => {
      await users.delete(callerOf(request), Number(request.params.id))
      return reply.code(204).send(null)
    })

    // ---- tours
    app.post('/user/:user_id/tour', {
      schema: { tags: ['tours'], summary: 'Create a tour (creator_id defaults to user_id); links the creator', description: PARAMS_NOTE, security, params: userParams, body: CreateTourBody, response: { 200: R.tour } }
    }, async (request) => ({ data: render.tour(await tours.create(callerOf(request), request.body, Number(request.params.user_id))) }))

    app.post('/tour', {
      schema: { tags: ['tours'], summary: 'Create a tour for creator_id; links the creator', description: PARAMS_NOTE, security, body: CreateTopLevelTourBody, response: { 200: R.tour } }
    }, async (request) => ({ data: render.tour(await tours.create(callerOf(request), request.body)) }))

    app.get('/tour', {
      schema: { tags: ['tours'], summary: "A user's tours (created or joined)", security, querystring: ToursQuery, response: { 200: R.tours } }
    }, async (request) => ({ data: (await tours.listForUser(callerOf(request), request.query.user_id)).map(render.tour) }))

    app.get('/user/:user_id/tour', {
      schema: { tags: ['tours'], summary: "A user's tours (created or joined)", security, params: userParams, response: { 200: R.tours } }
    }, async (request) => ({ data: (await tours.listForUser(callerOf(request), Number(request.params.user_id))).map(render.tour) }))

    for (const [url, params] of [['/tour/:id', idParams], ['/user/:user_id/tour/:id', userTourIdParams]] as const) {
      app.get(url, {
        schema: { tags: ['tours'], summary: 'One tour', security, params, response: { 200: R.tour } }
      }, async (request) => ({ data: render.tour(await tours.get(callerOf(request), Number(request.params.id))) }))

      for (const method of ['PATCH', 'PUT'] as const) {
        app.route({
          method, url,
          schema: { tags: ['tours'], summary: 'Update a tour (members)', description: PARAMS_NOTE, security, params, body: UpdateTourBody, response: { 202: R.tour } },
          handler: async (request, reply) => {
            const tour = await tours.update(callerOf(request), Number(request.params.id), request.body)
            return reply.code(202).send({ data: render.tour(tour) })
          }
        })
      }

      app.delete(url, {
        schema: { tags: ['tours'], summary: 'Delete a tour with its plans and members (creator only)', security, params, response: { 204: Type.Null() } }
      }, async (request, reply) => {
        await tours.delete(callerOf(request), Number(request.params.id))
        return reply.code(204).send(null)
      })
    }

    // ---- plans
    app.post('/user/:user_id/tour/:tour_id/plan', {
      schema: { tags: ['plans'], summary: 'Create a plan for a tour (members); absent fields are "nil"', description: PARAMS_NOTE, security, params: userTourParams, body: PlanBody, response: { 200: R.plan } }
    }, async (request) => ({ data: render.plan(await plans.create(callerOf(request), Number(request.params.tour_id), request.body)) }))

    app.post('/plan', {
      schema: { tags: ['plans'], summary: 'Create a plan for tour_id (members)', description: PARAMS_NOTE, security, body: CreateTopLevelPlanBody, response: { 200: R.plan } }
    }, async (request) => ({ data: render.plan(await plans.create(callerOf(request), request.body.tour_id, request.body)) }))

    app.get('/user/:user_id/tour/:tour_id/plan', {
      schema: { tags: ['plans'], summary: 'Plans of a tour', security, params: userTourParams, response: { 200: R.plans } }
    }, async (request) => ({ data: (await plans.listForTour(callerOf(request), Number(request.params.tour_id))).map(render.plan) }))

    for (const [url, params] of [['/plan/:id', idParams], ['/user/:user_id/tour/:tour_id/plan/:id', nestedPlanParams]] as const) {
      app.get(url, {
        schema: { tags: ['plans'], summary: 'One plan', security, params, response: { 200: R.plan } }
      }, async (request) => ({ data: render.plan(await plans.get(callerOf(request), Number(request.params.id))) }))

      for (const method of ['PATCH', 'PUT'] as const) {
        app.route({
          method, url,
          schema: { tags: ['plans'], summary: 'Update a plan (members)', description: PARAMS_NOTE, security, params, body: PlanBody, response: { 202: R.plan } },
          handler: async (request, reply) => {
            const plan = await plans.update(callerOf(request), Number(request.params.id), request.body)
            return reply.code(202).send({ data: render.plan(plan) })
          }
        })
      }

      app.delete(url, {
        schema: { tags: ['plans'], summary: "Delete a plan (the tour's creator)", security, params, response: { 204: Type.Null() } }
      }, async (request, reply) => {
        await plans.delete(callerOf(request), Number(request.params.id))
        return reply.code(204).send(null)
      })
    }

    // ---- tour members
    app.post('/tour_user', {
      schema: { tags: ['tour_users'], summary: 'Add the user with email_address to tour_id (members)', description: PARAMS_NOTE, security, body: CreateTourUserBody, response: { 200: R.tourUser } }
    }, async (request) => ({ data: render.tourUser(await members.add(callerOf(request), request.body)) }))

    app.get('/tour_user', {
      schema: {
        tags: ['tour_users'],
        summary: '?user_id= → that user\'s tour links (type tour_user); ?tour_id= → the tour\'s users, creator first (type user)',
        security, querystring: TourUserQuery, response: { 200: R.tourUsersOrUsers }
      }
    }, async (request) => {
      const listing = await members.list(callerOf(request), request.query)
      return listing.kind === 'links' ? { data: listing.links.map(render.tourUser) } : { data: listing.users.map(render.user) }
    })
  }
}
