import type { App } from '../../../../core/http/server.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import type { MissionsService } from './missions.service.js'
import * as schemas from './missions.schemas.js'

/** GET /api/missions and /api/missions/:id, filtered to the caller's tenant. */
export function missionRoutes(deps: { missions: MissionsService }) {
  return async function register(app: App) {
    app.get(
      '/api/missions',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags: ['missions'],
          summary: "Missions of the caller's tenant, newest first, one page at a time (cursor from nextCursor)",
          querystring: schemas.ListQuery,
          response: { 200: schemas.MissionList, 400: schemas.ErrorBody }
        }
      },
      async (request) => deps.missions.list(callerOf(request), request.query)
    )

    app.get(
      '/api/missions/:id',
      {
        config: { access: ACCESS.bearer },
        schema: {
          tags: ['missions'],
          summary: "One mission; another tenant's is not found",
          params: schemas.IdParams,
          response: { 200: schemas.MissionView, 404: schemas.ErrorBody }
        }
      },
      async (request) => deps.missions.get(callerOf(request), request.params.id)
    )
  }
}
