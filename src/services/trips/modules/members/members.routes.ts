import type { Guard } from '../../../../core/http/guard.js'
import type { App } from '../../../../core/http/server.js'
import type { Caller } from '../../access.js'
import { PARAMS_NOTE, security } from '../../http/jsonapi.js'
import { renderUser } from '../users/users.render.js'
import { renderTourUser } from './members.render.js'
import { CreateTourUserBody, TourUserQuery, TourUserResponse, TourUsersOrUsersResponse } from './members.schemas.js'
import type { MembersService } from './members.service.js'

export interface MembersRouteDeps {
  members: MembersService
  caller: Guard<Caller>
}

/** /tour_user: add a member to a tour; list a user's tour links or a tour's users. */
export function membersRoutes({ members, caller }: MembersRouteDeps) {
  return async function register(app: App) {
    app.post(
      '/tour_user',
      {
        schema: {
          tags: ['tour_users'],
          summary: 'Add the user with email_address to tour_id (members)',
          description: PARAMS_NOTE,
          security,
          body: CreateTourUserBody,
          response: { 200: TourUserResponse }
        }
      },
      async (request) => ({ data: renderTourUser(await members.add(caller.of(request), request.body)) })
    )

    app.get(
      '/tour_user',
      {
        schema: {
          tags: ['tour_users'],
          summary: "?user_id= → that user's tour links (type tour_user); ?tour_id= → the tour's users, creator first (type user)",
          security,
          querystring: TourUserQuery,
          response: { 200: TourUsersOrUsersResponse }
        }
      },
      async (request) => {
        const listing = await members.list(caller.of(request), request.query)
        return listing.kind === 'links' ? { data: listing.links.map(renderTourUser) } : { data: listing.users.map(renderUser) }
      }
    )
  }
}
