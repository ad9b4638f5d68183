/**
 * The opaque `cursor` of GET /api/missions: the sort key (created_at, id) of the last mission of
 * a page, versioned and base64url-encoded. It carries no tenant: the list is always read within
 * the caller's tenant, so an edited cursor can only move within the caller's own missions.
 */
import { orchestratorError } from '../../errors.js'
import type { MissionKey } from '../../state/missions.repository.js'

const PREFIX = 'm1.'
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const MISSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/

export function encodeCursor(key: MissionKey): string {
  return PREFIX + Buffer.from(JSON.stringify([key.createdAt, key.id])).toString('base64url')
}

function invalid(why: string): never {
  throw orchestratorError(
    'ORCH_MISSION_CURSOR_INVALID',
    `invalid cursor: ${why}; ` +
      'pass the nextCursor of a previous GET /api/missions page unchanged, or omit cursor to start from the newest mission'
  )
}

export function decodeCursor(cursor: string): MissionKey {
  if (!cursor.startsWith(PREFIX)) invalid('it is not a missions cursor')
  const encoded = cursor.slice(PREFIX.length)
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) invalid('it is not base64url')
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'))
  } catch {
    invalid('it does not decode')
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) invalid('it does not decode')
  const [createdAt, id] = parsed as unknown[]
  if (typeof createdAt !== 'string' || !ISO_INSTANT.test(createdAt) || Number.isNaN(Date.parse(createdAt)))
    invalid('its position is not a mission time')
  if (typeof id !== 'string' || !MISSION_ID.test(id)) invalid('its position is not a mission id')
  return { createdAt, id }
}
