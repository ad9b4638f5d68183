import { Type } from 'typebox'
import { closed, Id, many, one, resource } from '../../http/jsonapi.js'
import { UserResource } from '../users/users.schemas.js'

export const CreateTourUserBody = Type.Object(
  {
    email_address: Type.String({ minLength: 1, maxLength: 254, description: 'e-mail of the user to add (case-insensitive)' }),
    tour_id: Id
  },
  closed
)
export const TourUserQuery = Type.Object(
  {
    user_id: Type.Optional(Id),
    tour_id: Type.Optional(Id)
  },
  closed
)

const TourUserResource = resource('tour_user', Type.Object({ tour_id: Type.String(), user_id: Type.String() }))
export const TourUserResponse = one(TourUserResource)
/** ?user_id= answers tour links, ?tour_id= the tour's users. */
export const TourUsersOrUsersResponse = Type.Union([many(TourUserResource), many(UserResource)])
