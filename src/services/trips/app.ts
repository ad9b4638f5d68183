import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import { parse as parseForm } from 'node:querystring'
import formbody from '@fastify/formbody'
import { createServer, type App } from '../../core/http/server.js'
import { corsPolicy } from '../../core/http/plugins/cors.js'
import { health } from '../../core/http/plugins/health.js'
import { databaseHealthCheck } from '../../core/http/plugins/database-health.js'
import { inputSanity } from '../../core/http/plugins/input-sanity.js'
import { openApiDocs } from '../../core/http/plugins/openapi.js'
import { requestLog } from '../../core/http/plugins/request-log.js'
import { securityHeaders } from '../../core/http/plugins/security-headers.js'
import { createGuard } from '../../core/http/guard.js'
import { markStringSourced } from '../../core/http/validation.js'
import type { TripsSettings } from './config.js'
import { createAccess, type Caller } from './access.js'
import type { TripsDb } from './db.js'
import { tripsErrorFormatter } from './errors.js'
import { JsonApiErrors, NotAuthenticated } from './http/jsonapi.js'
import { readWriteParamsFromQuery } from './http/query-params.js'
import { createUsersRepository } from './modules/users/users.repository.js'
import { createToursRepository } from './modules/tours/tours.repository.js'
import { createPlansRepository } from './modules/plans/plans.repository.js'
import { createMembersRepository } from './modules/members/members.repository.js'
import { createUsersService } from './modules/users/users.service.js'
import { createToursService } from './modules/tours/tours.service.js'
import { createPlansService } from './modules/plans/plans.service.js'
import { createMembersService } from './modules/members/members.service.js'
import { usersRoutes } from './modules/users/users.routes.js'
import { toursRoutes } from './modules/tours/tours.routes.js'
import { plansRoutes } from './modules/plans/plans.routes.js'
import { membersRoutes } from './modules/members/members.routes.js'

export const TRIPS_PREFIX = '/api/private/v1'

export interface TripsAppDeps {
  db: TripsDb
  config: Pick<TripsSettings, 'compat' | 'authz' | 'corsOrigins'>
  authenticate: (request: FastifyRequest) => Promise<Caller>
  logger: FastifyBaseLogger
  clock: () => Date
}

/** The trips service as a Fastify app (not listening): the composition root of its modules. */
export async function buildTripsApp(deps: TripsAppDeps): Promise<App> {
  const app = createServer({ logger: deps.logger, errorFormatter: tripsErrorFormatter, validationCode: 'TRIPS_VALIDATION_FAILED' })
  inputSanity(app)
  securityHeaders(app)
  requestLog(app)
  await corsPolicy(app, { origin: deps.config.corsOrigins })
  await openApiDocs(app, {
    name: 'trips',
    description: 'Back-country trip planning: users, tours, plans and tour members (JSON:API-style envelope).',
    credentials:
      'Routes under /api/private need a bearer token. With the development signing key (no identity provider configured) mint one ' +
      'with `quartet token trips --email you@example.com` and paste it under **Authorize**; otherwise use an access token of the ' +
      'configured identity provider.',
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Access token of the identity provider (authorization header; the "Bearer " prefix may be omitted)'
      }
    },
    tags: [{ name: 'users' }, { name: 'tours' }, { name: 'plans' }, { name: 'tour_users' }, { name: 'health' }],
    errorResponses: {
      400: JsonApiErrors,
      401: NotAuthenticated,
      403: JsonApiErrors,
      404: JsonApiErrors,
      413: JsonApiErrors,
      422: JsonApiErrors
    }
  })
  health(app, { name: 'trips', check: databaseHealthCheck(deps.db) })
  await app.register(formbody, { bodyLimit: 1024 * 1024, parser: (text) => markStringSourced(parseForm(text)) })

  const now = () => deps.clock().toISOString()
  const repositories = {
    users: createUsersRepository(deps.db),
    tours: createToursRepository(deps.db),
    plans: createPlansRepository(deps.db),
    members: createMembersRepository(deps.db)
  }
  const access = createAccess({ ...repositories, authz: deps.config.authz })
  const users = createUsersService({ users: repositories.users, access, now })
  const tours = createToursService({ tours: repositories.tours, users: repositories.users, access, now })
  const plans = createPlansService({ plans: repositories.plans, access, now })
  const members = createMembersService({ members: repositories.members, users: repositories.users, access, now })
  const caller = createGuard('trips', deps.authenticate)
  const compat = deps.config.compat

  // Every route of the API needs a caller; the registration order is the OpenAPI path order.
  await app.register(
    async (api) => {
      api.addHook('onRequest', caller.check)
      readWriteParamsFromQuery(api)
      await api.register(usersRoutes({ users, caller, compat }))
      await api.register(toursRoutes({ tours, caller, compat }))
      await api.register(plansRoutes({ plans, caller, compat }))
      await api.register(membersRoutes({ members, caller }))
    },
    { prefix: TRIPS_PREFIX }
  )
  return app
}
