import type { UserRow } from '../../db.js'

export function renderUser(row: UserRow) {
  return {
    id: String(row.id),
    type: 'user' as const,
    attributes: {
      user_name: row.user_name,
      email_address: row.email_address,
      emergency_contact_name: row.emergency_contact_name,
      emergency_number: row.emergency_number
    }
  }
}
