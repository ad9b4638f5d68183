import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import formbody from '@fastify/formbody'
import { sql } from 'kysely'
import { buildServer, type App } from '../../core/http/server.js'
import type { Config } from '../../core/config/config.js'
import { allowEmptyJsonBodies } from '../../core/http/json-body.js'
import type { Caller } from './access.js'
import { createAccess } from './access.js'
import type { TripsDb } from './db.js'
import { tripsErrorFormatter } from './errors.js'
import { createRenderer } from './render.js'
import { JsonApiErrors, NotAuthenticated } from './schemas.js'
import { tripsRoutes } from './routes.js'
import { createUsersRepository } from './modules/users/users.repository.js'
import { createToursRepository } from './modules/tours/tours.repository.js'
import { createPlansRepository } from './modules/plans/plans.repository.js'
import { createMembersRepository } from './modules/members/members.repository.js'
import { createUsersService } from './modules/users/users.service.js'
import { createToursService } from './modules/tours/tours.service.js'
import { createPlansService } from './modules/plans/plans.service.js'
import { createMembersService } from './modules/members/members.service.js'

export const TRIPS_PREFIX = '/api/private/v1'

export interface TripsAppDeps {
  db: TripsDb
  config: Pick<Config['trips'], 'compat' | 'authz' | 'corsOrigins'>
  authenticate: (request: FastifyRequest) => Promise<Caller>
  logger: FastifyBaseLogger
  clock: () => Date
}

/** The trips service as a Fastify app (not listening): the composition root of its modules. */
export async function buildTripsApp(deps: TripsAppDeps): Promise<App> {
  const app = await buildServer({
    name: 'trips',
    description: 'Back-country trip planning: users, tours, plans and tour members (JSON:API-style envelope).',
    logger: deps.logger,
    errorFormatter: tripsErrorFormatter,
    corsOrigins: deps.config.corsOrigins,
    healthCheck: async () => { await sql`select 1`.execute(deps.db) },
    openapi: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token of the identity provider (authorization header; the "Bearer " prefix may be omitted)' } },
      tags: [{ name: 'users' }, { name: 'tours' }, { name: 'plans' }, { name: 'tour_users' }, { name: 'health' }],
      errorResponses: { 400: JsonApiErrors, 401: NotAuthenticated, 403: JsonApiErrors, 404: JsonApiErrors, 413: JsonApiErrors, 422: JsonApiErrors }
    }
  })
  allowEmptyJsonBodies(app)
  await app.register(formbody, { bodyLimit: 1024 * 1024 })

  const now = () => deps.clock().toISOString()
  const repositories = {
    users: createUsersRepository(deps.db),
    tours: createToursRepository(deps.db),
    plans: createPlansRepository(deps.db),
    members: createMembersRepository(deps.db)
  }
  const access = createAccess({ ...repositories, authz: deps.config.authz })
  const routes = tripsRoutes({
    users: createUsersService({ users: repositories.users, access, now }),
    tours: createToursService({ tours: repositories.tours, users: repositories.users, access, now }),
    plans: createPlansService({ plans: repositories.plans, access, now }),
    members: createMembersService({ members: repositories.members, users: repositories.users, access, now }),
    render: createRenderer(deps.config.compat),
    authenticate: deps.authenticate
  })
  await app.register(routes, { prefix: TRIPS_PREFIX })
  return app
}
