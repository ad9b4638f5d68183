import { Type } from 'typebox'
import { closed, Flag, flagSchema, Id, IdParam, many, one, resource, Text, type Compat } from '../../http/jsonapi.js'

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$'
const TourFields = {
  date: Type.String({
    pattern: DATE_PATTERN,
    maxLength: 40,
    description: 'YYYY-MM-DD (an ISO-8601 timestamp is accepted and cut to its UTC date)'
  }),
  location: Text('where the tour goes', 500),
  creator_id: Id,
  complete: Flag('whether the tour is done')
}
export const CreateTourBody = Type.Object(
  {
    date: TourFields.date,
    location: TourFields.location,
    creator_id: Type.Optional(Type.Integer({ ...Id, description: 'defaults to the user of the path' })),
    complete: Type.Optional(TourFields.complete)
  },
  closed
)
export const CreateTopLevelTourBody = Type.Object(
  {
    date: TourFields.date,
    location: TourFields.location,
    creator_id: TourFields.creator_id,
    complete: Type.Optional(TourFields.complete)
  },
  closed
)
export const UpdateTourBody = Type.Partial(Type.Object(TourFields), closed)
export const ToursQuery = Type.Object({ user_id: Id }, closed)
export const userTourIdParams = Type.Object({ user_id: IdParam, id: IdParam })

export function tourResponses(compat: Compat) {
  const tour = resource(
    'tour',
    Type.Object({
      date: Type.String({ description: compat === 'original' ? 'UTC timestamp at midnight' : 'YYYY-MM-DD' }),
      location: Type.String(),
      creator_id: Type.Integer(),
      complete: flagSchema(compat)
    })
  )
  return { tour: one(tour), tours: many(tour) }
}
