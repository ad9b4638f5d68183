import type { ExpressionBuilder, Generated, Kysely, Selectable } from 'kysely'

export const PLAN_TEXT_FIELDS = [
  'hazard_weather',
  'hazard_avalanche',
  'hazard_summary',
  'route_preview',
  'route_alternative',
  'emergency_plan',
  'debrief_conditions',
  'debrief_decisions',
  'debrief_plan'
] as const
export type PlanTextField = (typeof PLAN_TEXT_FIELDS)[number]

interface Timestamps {
  created_at: string
  updated_at: string
}

export interface UsersTable extends Timestamps {
  id: Generated<number>
  user_name: string
  email_address: string
  email_key: string
  emergency_contact_name: string
  emergency_number: string
}

export interface ToursTable extends Timestamps {
  id: Generated<number>
  date: string
  location: string
  creator_id: number
  complete: number
}

export type PlansTable = Timestamps & { id: Generated<number>; tour_id: number; checklist: number; departure_check: number } & Record<
    PlanTextField,
    string
  >

export interface TourUsersTable {
  id: Generated<number>
  tour_id: number
  user_id: number
  created_at: string
}

export interface TripsTables {
  trips_users: UsersTable
  trips_tours: ToursTable
  trips_plans: PlansTable
  trips_tour_users: TourUsersTable
}

export type TripsDb = Kysely<TripsTables>
export type UserRow = Selectable<UsersTable>
export type TourRow = Selectable<ToursTable>
export type PlanRow = Selectable<PlansTable>
export type TourUserRow = Selectable<TourUsersTable>

/**
 * The tour-viewer filter: keeps rows whose tour link (`trips_tour_users as link`) is a tour the
 * viewer also belongs to. One fragment for every query that lists another user's tours or links.
 */
export function linkedTourSharedWith(viewerId: number) {
  return (eb: ExpressionBuilder<TripsTables & { link: TourUsersTable }, 'link'>) =>
    eb.exists(
      eb
        .selectFrom('trips_tour_users as mine')
        .select('mine.id')
        .whereRef('mine.tour_id', '=', 'link.tour_id')
        .where('mine.user_id', '=', viewerId)
    )
}
