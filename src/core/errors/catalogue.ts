import { commonErrors } from './codes/common.js'
import { tripsErrors } from './codes/trips.js'
import { feedErrors } from './codes/feed.js'
import { marketplaceErrors } from './codes/marketplace.js'

export interface ErrorSpec {
  status: number
  /** Default human message; a thrower may give a more specific one. */
  message: string
}

/**
 * Every error code Quartet can answer with. docs/errors.md lists the same codes (a test keeps
 * them equal). Codes are stable: clients may switch on them.
 */
export const errorCatalogue = {
  ...commonErrors,
  ...tripsErrors,
  ...feedErrors,
  ...marketplaceErrors
} as const satisfies Record<string, ErrorSpec>

export type ErrorCode = keyof typeof errorCatalogue
