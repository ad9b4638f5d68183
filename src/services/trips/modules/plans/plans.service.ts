import type { Static } from 'typebox'
import { isForeignKeyViolation } from '../../../../core/db/errors.js'
import { AppError } from '../../../../core/errors/app-error.js'
import type { Access, Caller } from '../../access.js'
import { PLAN_TEXT_FIELDS, type PlanRow, type PlanTextField } from '../../db.js'
import type { PlanBody } from './plans.schemas.js'
import type { PlansRepository } from './plans.repository.js'
import { tripsError } from '../../errors.js'

const ABSENT = 'nil'

export interface PlansServiceDeps {
  plans: PlansRepository
  access: Access
  now: () => string
}

type PlanInput = Static<typeof PlanBody>
type PlanChanges = Partial<Record<PlanTextField, string>> & { checklist?: number; departure_check?: number }

/** The columns an input sets: route_avalanche is the seed's alias of route_alternative. */
function planChanges(input: PlanInput): PlanChanges {
  const fields = input as Record<string, unknown>
  const changes: PlanChanges = {}
  for (const field of PLAN_TEXT_FIELDS) {
    const value = fields[field]
    if (typeof value === 'string') changes[field] = value
  }
  if (changes.route_alternative === undefined && typeof input.route_avalanche === 'string') {
    changes.route_alternative = input.route_avalanche
  }
  if (typeof input.checklist === 'boolean') changes.checklist = input.checklist ? 1 : 0
  if (typeof input.departure_check === 'boolean') changes.departure_check = input.departure_check ? 1 : 0
  return changes
}

export function createPlansService({ plans, access, now }: PlansServiceDeps) {
  async function readablePlan(caller: Caller, id: number): Promise<PlanRow> {
    const plan = await plans.findById(id)
    if (!plan) {
      // An unknown caller is told so (as for a tour) rather than learning which plans exist.
      await access.viewerId(caller)
      throw tripsError('TRIPS_PLAN_NOT_FOUND')
    }
    try {
      await access.readableTour(caller, plan.tour_id)
    } catch (error) {
      // A plan of a tour the caller cannot see does not exist for them.
      if (error instanceof AppError && error.code === 'TRIPS_TOUR_NOT_FOUND') throw tripsError('TRIPS_PLAN_NOT_FOUND')
      throw error
    }
    return plan
  }

  return {
    async create(caller: Caller, tourId: number, input: PlanInput): Promise<PlanRow> {
      await access.readableTour(caller, tourId)
      const at = now()
      const changes = planChanges(input)
      const text = Object.fromEntries(PLAN_TEXT_FIELDS.map((field) => [field, changes[field] ?? ABSENT])) as Record<PlanTextField, string>
      return plans
        .insert({
          ...text,
          checklist: changes.checklist ?? 0,
          departure_check: changes.departure_check ?? 0,
          tour_id: tourId,
          created_at: at,
          updated_at: at
        })
        .catch((error: unknown) => {
          // The tour was deleted between the access check and the insert.
          if (isForeignKeyViolation(error)) throw tripsError('TRIPS_TOUR_NOT_FOUND')
          throw error
        })
    },

    get: readablePlan,

    async listForTour(caller: Caller, tourId: number): Promise<PlanRow[]> {
      await access.readableTour(caller, tourId)
      return plans.listForTour(tourId)
    },

    async update(caller: Caller, id: number, input: PlanInput): Promise<PlanRow> {
      await readablePlan(caller, id)
      const updated = await plans.update(id, { ...planChanges(input), updated_at: now() })
      if (!updated) throw tripsError('TRIPS_PLAN_NOT_FOUND')
      return updated
    },

    /** Deleting a plan is for the tour's creator, like deleting the tour. */
    async delete(caller: Caller, id: number): Promise<void> {
      const plan = await readablePlan(caller, id)
      await access.ownedTour(caller, plan.tour_id)
      if (!(await plans.delete(id))) throw tripsError('TRIPS_PLAN_NOT_FOUND')
    }
  }
}
export type PlansService = ReturnType<typeof createPlansService>
