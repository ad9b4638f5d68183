import type { FastifyRequest } from 'fastify'
import type { App } from '../../../core/http/server.js'
import type { FeedCaller } from '../auth.js'
import type { UsersService } from '../modules/users/users.service.js'
import { ErrorBody, LoginBody, LoginResponse, MessageResponse, SignupBody, SignupResponse, StatusBody, StatusResponse } from '../schemas.js'

export interface AuthRouteDeps {
  users: UsersService
  authenticate: (request: FastifyRequest) => Promise<FeedCaller>
}

const open: never[] = []
const bearer = [{ bearer: [] }]

/** /auth: sign-up (POST and PUT), login, and the caller's status. */
export function authRoutes({ users, authenticate }: AuthRouteDeps) {
  return async function register(app: App) {
    for (const method of ['PUT', 'POST'] as const) {
      app.route({
        method, url: '/auth/signup',
        schema: {
          tags: ['auth'],
          summary: method === 'PUT' ? 'Sign up (the original clients use PUT)' : 'Sign up',
          security: open,
          body: SignupBody,
          response: { 201: SignupResponse, 400: ErrorBody, 422: ErrorBody }
        },
        handler: async (request, reply) => {
          const { userId } = await users.signup(request.body)
          return reply.code(201).send({ message: 'User created!', userId })
        }
      })
    }

    app.post('/auth/login', {
      schema: {
        tags: ['auth'], summary: 'Log in: a token valid for one hour', security: open,
        body: LoginBody, response: { 200: LoginResponse, 400: ErrorBody, 401: ErrorBody, 422: ErrorBody }
      }
    }, async (request) => users.login(request.body))

    app.get('/auth/status', {
      schema: { tags: ['auth'], summary: "The caller's status", security: bearer, response: { 200: StatusResponse, 401: ErrorBody, 404: ErrorBody } },
      onRequest: async (request) => { request.feedCaller = await authenticate(request) }
    }, async (request) => ({ status: await users.getStatus(callerOf(request).userId) }))

    app.patch('/auth/status', {
      schema: {
        tags: ['auth'], summary: "Set the caller's status", security: bearer,
        body: StatusBody, response: { 200: MessageResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 422: ErrorBody }
      },
      onRequest: async (request) => { request.feedCaller = await authenticate(request) }
    }, async (request) => {
      await users.setStatus(callerOf(request).userId, request.body ?? {})
      return { message: 'User updated.' }
    })
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    feedCaller?: FeedCaller
  }
}

export function callerOf(request: FastifyRequest): FeedCaller {
  // Set by the onRequest hook of every authenticated route.
  return request.feedCaller as FeedCaller
}
