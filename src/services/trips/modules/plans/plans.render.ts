import { PLAN_TEXT_FIELDS, type PlanRow } from '../../db.js'
import { flagRenderer, type Compat } from '../../http/jsonapi.js'

export function createPlanRenderer(compat: Compat) {
  const flag = flagRenderer(compat)
  return (row: PlanRow) => {
    const attributes: Record<string, string | boolean> = {}
    for (const field of PLAN_TEXT_FIELDS) attributes[field] = row[field]
    // The seed's response example names the route_alternative column route_avalanche: emit both.
    attributes.route_avalanche = row.route_alternative
    attributes.checklist = flag(row.checklist)
    attributes.departure_check = flag(row.departure_check)
    return { id: String(row.id), type: 'plan' as const, attributes }
  }
}
