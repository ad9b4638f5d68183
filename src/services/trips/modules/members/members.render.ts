import type { TourUserRow } from '../../db.js'

export function renderTourUser(row: TourUserRow) {
  return {
    id: String(row.id),
    type: 'tour_user' as const,
    attributes: { tour_id: String(row.tour_id), user_id: String(row.user_id) }
  }
}
