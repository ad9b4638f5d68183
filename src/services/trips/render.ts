import { PLAN_TEXT_FIELDS, type PlanRow, type TourRow, type TourUserRow, type UserRow } from './db.js'

export type Compat = 'seed' | 'original'

/**
 * JSON:API-style resource objects. "seed" renders what the seed shows (complete as a string,
 * dates as YYYY-MM-DD); "original" renders what the original Rails API and its React client use
 * (JSON booleans, full UTC timestamps).
 */
export function createRenderer(compat: Compat) {
  const flag = compat === 'original' ? (v: number) => v === 1 : (v: number) => (v === 1 ? 'true' : 'false')
  const date = compat === 'original' ? (d: string) => `${d}T00:00:00.000Z` : (d: string) => d

  return {
    compat,
    user: (row: UserRow) => ({
      id: String(row.id),
      type: 'user' as const,
      attributes: {
        user_name: row.user_name,
        email_address: row.email_address,
        emergency_contact_name: row.emergency_contact_name,
        emergency_number: row.emergency_number
      }
    }),
    tour: (row: TourRow) => ({
      id: String(row.id),
      type: 'tour' as const,
      attributes: { date: date(row.date), location: row.location, creator_id: row.creator_id, complete: flag(row.complete) }
    }),
    plan: (row: PlanRow) => {
      const attributes: Record<string, string | boolean> = {}
      for (const field of PLAN_TEXT_FIELDS) attributes[field] = row[field]
      // The seed's response example names the route_alternative column route_avalanche: emit both.
      attributes.route_avalanche = row.route_alternative
      attributes.checklist = flag(row.checklist)
      attributes.departure_check = flag(row.departure_check)
      return { id: String(row.id), type: 'plan' as const, attributes }
    },
    tourUser: (row: TourUserRow) => ({
      id: String(row.id),
      type: 'tour_user' as const,
      attributes: { tour_id: String(row.tour_id), user_id: String(row.user_id) }
    })
  }
}
export type Renderer = ReturnType<typeof createRenderer>
