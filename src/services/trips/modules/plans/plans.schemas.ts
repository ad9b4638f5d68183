import { Type, type TSchema } from 'typebox'
import { PLAN_TEXT_FIELDS } from '../../db.js'
import { closed, Flag, flagSchema, Id, IdParam, many, one, resource, Text, type Compat } from '../../http/jsonapi.js'

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
export const nestedPlanParams = Type.Object({ user_id: IdParam, tour_id: IdParam, id: IdParam })

export function planResponses(compat: Compat) {
  const flag = flagSchema(compat)
  const attributes: Record<string, TSchema> = {}
  for (const field of PLAN_TEXT_FIELDS) attributes[field] = Type.String()
  const plan = resource('plan', Type.Object({ ...attributes, route_avalanche: Type.String(), checklist: flag, departure_check: flag }))
  return { plan: one(plan), plans: many(plan) }
}
