import { Type, type TSchema } from 'typebox'
import { PLAN_TEXT_FIELDS } from './db.js'
import type { Compat } from './render.js'

export const IdParam = Type.String({ pattern: '^[0-9]{1,15}$', description: 'numeric id' })
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 })
const Text = (description: string, maxLength = 10_000) => Type.String({ minLength: 1, maxLength, description })
const Flag = (description: string) => Type.Boolean({ description: `${description} (true/false, also as strings)` })

export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+$'
export const UserFields = {
  user_name: Text('display name', 200),
  email_address: Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL_PATTERN, description: 'unique, case-insensitive' }),
  emergency_contact_name: Text('emergency contact (default "nil")', 200),
  emergency_number: Text('emergency phone number (default "nil")', 100)
}
// Closed objects: unknown parameters are dropped before handlers see them (as Rails' strong
// parameters did), never passed on.
const closed = { additionalProperties: false } as const

export const CreateUserBody = Type.Object({
  user_name: UserFields.user_name,
  email_address: UserFields.email_address,
  emergency_contact_name: Type.Optional(UserFields.emergency_contact_name),
  emergency_number: Type.Optional(UserFields.emergency_number)
}, closed)
export const UpdateUserBody = Type.Partial(Type.Object(UserFields), closed)

export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$'
const TourFields = {
  date: Type.String({ pattern: DATE_PATTERN, maxLength: 40, description: 'YYYY-MM-DD (an ISO-8601 timestamp is accepted and cut to its UTC date)' }),
  location: Text('where the tour goes', 500),
  creator_id: Id,
  complete: Flag('whether the tour is done')
}
export const CreateTourBody = Type.Object({
  date: TourFields.date,
  location: TourFields.location,
  creator_id: Type.Optional(Type.Integer({ ...Id, description: 'defaults to the user of the path' })),
  complete: Type.Optional(TourFields.complete)
}, closed)
export const CreateTopLevelTourBody = Type.Object({
  date: TourFields.date,
  location: TourFields.location,
  creator_id: TourFields.creator_id,
  complete: Type.Optional(TourFields.complete)
}, closed)
export const UpdateTourBody = Type.Partial(Type.Object(TourFields), closed)

const planTextProperties: Record<string, TSchema> = {}
for (const field of PLAN_TEXT_FIELDS) planTextProperties[field] = Type.Optional(Text(`${field.replace(/_/g, ' ')} (default "nil")`))
const planProperties = {
  ...planTextProperties,
  route_avalanche: Type.Optional(Text('alias of route_alternative')),
  checklist: Type.Optional(Flag('checklist done')),
  departure_check: Type.Optional(Flag('departure check done'))
}
export const PlanBody = Type.Object(planProperties, closed)
export const CreateTopLevelPlanBody = Type.Object({ ...planProperties, tour_id: Id }, closed)

export const CreateTourUserBody = Type.Object({
  email_address: Type.String({ minLength: 1, maxLength: 254, description: 'e-mail of the user to add (case-insensitive)' }),
  tour_id: Id
}, closed)
export const TourUserQuery = Type.Object({
  user_id: Type.Optional(Id),
  tour_id: Type.Optional(Id)
}, closed)
export const ToursQuery = Type.Object({ user_id: Id }, closed)

// Responses: exact shapes so Fastify serialises them fast and the OpenAPI document is complete.
const resource = (type: string, attributes: TSchema) =>
  Type.Object({ id: Type.String(), type: Type.Literal(type), attributes })

export function responseSchemas(compat: Compat) {
  // A string enum, not a union of literals: fast-json-stringify serialises it without trying branches.
  const flag = compat === 'original' ? Type.Boolean() : Type.Unsafe<'true' | 'false'>({ type: 'string', enum: ['true', 'false'] })
  const user = resource('user', Type.Object({
    user_name: Type.String(), email_address: Type.String(), emergency_contact_name: Type.String(), emergency_number: Type.String()
  }))
  const tour = resource('tour', Type.Object({
    date: Type.String({ description: compat === 'original' ? 'UTC timestamp at midnight' : 'YYYY-MM-DD' }),
    location: Type.String(),
    creator_id: Type.Integer(),
    complete: flag
  }))
  const planAttributes: Record<string, TSchema> = {}
  for (const field of PLAN_TEXT_FIELDS) planAttributes[field] = Type.String()
  const plan = resource('plan', Type.Object({ ...planAttributes, route_avalanche: Type.String(), checklist: flag, departure_check: flag }))
  const tourUser = resource('tour_user', Type.Object({ tour_id: Type.String(), user_id: Type.String() }))
  const one = (schema: TSchema) => Type.Object({ data: schema })
  const many = (schema: TSchema) => Type.Object({ data: Type.Array(schema) })
  return {
    user: one(user),
    userLookup: compat === 'original' ? many(user) : one(user),
    users: many(user),
    tour: one(tour),
    tours: many(tour),
    plan: one(plan),
    plans: many(plan),
    tourUser: one(tourUser),
    tourUsers: many(tourUser),
    tourUsersOrUsers: Type.Union([many(tourUser), many(user)])
  }
}

export const JsonApiErrors = Type.Object({
  errors: Type.Array(Type.Object({
    status: Type.String(),
    code: Type.String(),
    title: Type.String(),
    detail: Type.String(),
    source: Type.Optional(Type.Object({ pointer: Type.Optional(Type.String()), parameter: Type.Optional(Type.String()) }))
  })),
  meta: Type.Object({ request_id: Type.String() })
})
export const NotAuthenticated = Type.Object({ errors: Type.Array(Type.Literal('Not Authenticated')) })
