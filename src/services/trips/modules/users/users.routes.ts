import { Type } from 'typebox'
import type { Guard } from '../../../../core/http/guard.js'
import type { App } from '../../../../core/http/server.js'
import type { Caller } from '../../access.js'
import { idParams, PARAMS_NOTE, security, type Compat } from '../../http/jsonapi.js'
import { renderUser } from './users.render.js'
import { CreateUserBody, UpdateUserBody, UserParams, userResponses } from './users.schemas.js'
import type { UsersService } from './users.service.js'

export interface UsersRouteDeps {
  users: UsersService
  caller: Guard<Caller>
  compat: Compat
}

/** /user: create, look up, update and delete users. */
export function usersRoutes({ users, caller, compat }: UsersRouteDeps) {
  const R = userResponses(compat)
  return async function register(app: App) {
    app.post(
      '/user',
      {
        schema: {
          tags: ['users'],
          summary: 'Create a user',
          description: PARAMS_NOTE,
          security,
          body: CreateUserBody,
          response: { 200: R.user }
        }
      },
      async (request) => ({ data: renderUser(await users.create(caller.of(request), request.body)) })
    )

    app.get(
      '/user/:email_address',
      {
        schema: {
          tags: ['users'],
          summary: 'Find a user by e-mail address (case-insensitive; a numeric segment is taken as the id)',
          security,
          params: UserParams,
          response: { 200: R.userLookup }
        }
      },
      async (request) => {
        const user = renderUser(await users.lookup(caller.of(request), request.params.email_address))
        return { data: compat === 'original' ? [user] : user }
      }
    )

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/user/:id',
        schema: {
          tags: ['users'],
          summary: 'Update your user',
          description: PARAMS_NOTE,
          security,
          params: idParams,
          body: UpdateUserBody,
          response: { 202: R.user }
        },
        handler: async (request, reply) => {
          const user = await users.update(caller.of(request), Number(request.params.id), request.body)
          return reply.code(202).send({ data: renderUser(user) })
        }
      })
    }

    app.delete(
      '/user/:id',
      {
        schema: {
          tags: ['users'],
          summary: 'Delete your user (and your tour memberships)',
          security,
          params: idParams,
          response: { 204: Type.Null() }
        }
      },
      async (request, reply) => {
        await users.delete(caller.of(request), Number(request.params.id))
        return reply.code(204).send(null)
      }
    )
  }
}
