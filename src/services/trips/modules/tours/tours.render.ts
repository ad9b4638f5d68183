import type { TourRow } from '../../db.js'
import { flagRenderer, type Compat } from '../../http/jsonapi.js'

/** A tour: the seed shows dates as YYYY-MM-DD, the original as UTC timestamps at midnight. */
export function createTourRenderer(compat: Compat) {
  const flag = flagRenderer(compat)
  const date = compat === 'original' ? (d: string) => `${d}T00:00:00.000Z` : (d: string) => d
  return (row: TourRow) => ({
    id: String(row.id),
    type: 'tour' as const,
    attributes: { date: date(row.date), location: row.location, creator_id: row.creator_id, complete: flag(row.complete) }
  })
}
