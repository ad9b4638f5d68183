import type { Guard } from '../../../../core/http/guard.js'
import type { App } from '../../../../core/http/server.js'
import type { FeedCaller } from '../../auth.js'
import { bearerAccess, ErrorBody, MessageResponse, openAccess, TooManyAttempts } from '../../http/schemas.js'
import { LoginBody, LoginResponse, SignupBody, SignupResponse, StatusBody, StatusResponse } from './users.schemas.js'
import type { UsersService } from './users.service.js'

export interface UsersRouteDeps {
  users: UsersService
  caller: Guard<FeedCaller>
}

/** /auth: sign-up (POST and PUT), login, and the caller's status. */
export function usersRoutes({ users, caller }: UsersRouteDeps) {
  return async function register(app: App) {
    for (const method of ['PUT', 'POST'] as const) {
      app.route({
        method,
        url: '/auth/signup',
        schema: {
          tags: ['auth'],
          summary: method === 'PUT' ? 'Sign up (the original clients use PUT)' : 'Sign up',
          security: openAccess,
          body: SignupBody,
          response: { 201: SignupResponse, 400: ErrorBody, 422: ErrorBody, 429: TooManyAttempts }
        },
        handler: async (request, reply) => {
          const { userId } = await users.signup(request.body, { address: request.ip })
          return reply.code(201).send({ message: 'User created!', userId })
        }
      })
    }

    app.post(
      '/auth/login',
      {
        schema: {
          tags: ['auth'],
          summary: 'Log in: a token valid for one hour',
          security: openAccess,
          body: LoginBody,
          response: { 200: LoginResponse, 400: ErrorBody, 401: ErrorBody, 422: ErrorBody, 429: TooManyAttempts }
        }
      },
      async (request) => users.login(request.body, { address: request.ip })
    )

    app.get(
      '/auth/status',
      {
        schema: {
          tags: ['auth'],
          summary: "The caller's status",
          security: bearerAccess,
          response: { 200: StatusResponse, 401: ErrorBody, 404: ErrorBody }
        },
        onRequest: caller.check
      },
      async (request) => ({ status: await users.getStatus(caller.of(request)) })
    )

    app.patch(
      '/auth/status',
      {
        schema: {
          tags: ['auth'],
          summary: "Set the caller's status",
          security: bearerAccess,
          body: StatusBody,
          response: { 200: MessageResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 422: ErrorBody }
        },
        onRequest: caller.check
      },
      async (request) => {
        await users.setStatus(caller.of(request), request.body ?? {})
        return { message: 'User updated.' }
      }
    )
  }
}
