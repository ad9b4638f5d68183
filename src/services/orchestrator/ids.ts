import type { Platform } from '../../core/platform.js'

/** Six base36 characters from the platform's random source (execution, mission and approval ids). */
export function randomBase36(platform: Pick<Platform, 'ids'>): string {
  return BigInt(`0x${Buffer.from(platform.ids.token(8), 'base64url').toString('hex')}`)
    .toString(36)
    .slice(-6)
    .padStart(6, '0')
}

/** `<prefix>-<base36 ms>-<6 random base36>`: sortable by time, unique across processes. */
export function idMaker(platform: Pick<Platform, 'ids' | 'clock'>): (prefix: string) => string {
  return (prefix) => `${prefix}-${platform.clock().getTime().toString(36)}-${randomBase36(platform)}`
}
