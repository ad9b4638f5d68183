import { STATUS_CODES } from 'node:http'
import type { ErrorFormatter } from '../../core/http/plugins/error-shape.js'
import { commonErrors, type CommonErrorCode } from '../../core/errors/common.js'
import { defineErrors } from '../../core/errors/define.js'

export const tripsErrors = {
  TRIPS_NOT_AUTHENTICATED: { status: 401, message: 'Not Authenticated' },
  TRIPS_VALIDATION_FAILED: { status: 422, message: 'A parameter is missing or invalid.' },
  TRIPS_USER_NOT_FOUND: { status: 404, message: 'No such user.' },
  TRIPS_TOUR_NOT_FOUND: { status: 404, message: 'No such tour.' },
  TRIPS_PLAN_NOT_FOUND: { status: 404, message: 'No such plan.' },
  TRIPS_EMAIL_TAKEN: { status: 422, message: 'A user with this e-mail address already exists.' },
  TRIPS_MEMBER_EXISTS: { status: 422, message: 'User Tour relationship already exists' },
  TRIPS_MEMBER_USER_UNKNOWN: { status: 422, message: 'User must exist' },
  TRIPS_CALLER_UNKNOWN: { status: 403, message: 'No user has the e-mail address of this token; create it with POST /user first.' },
  TRIPS_EMAIL_NOT_YOURS: {
    status: 403,
    message: "email_address must be your token's e-mail address: a user can only be created (or changed) for yourself."
  },
  TRIPS_NOT_OWNER: { status: 403, message: 'Only the user themself may change this user.' },
  TRIPS_NOT_CREATOR: { status: 403, message: 'Only the tour creator may do this.' },
  TRIPS_CREATOR_MISMATCH: { status: 403, message: 'A tour can only be created with yourself as creator.' }
} as const

export type TripsErrorCode = keyof typeof tripsErrors | CommonErrorCode

/** Raises one of this service's errors, or a common one. */
export const tripsError = defineErrors({ ...commonErrors, ...tripsErrors })

/**
 * Trips answers errors in JSON:API shape: one entry per problem with status, code, title, detail
 * and source.pointer. Validation failures are 422 (Rails' status for invalid records); an
 * authentication failure is exactly the original's {"errors":["Not Authenticated"]}.
 */
export const tripsErrorFormatter: ErrorFormatter = (error, request) => {
  if (error.statusCode === 401) {
    return { statusCode: 401, body: { errors: ['Not Authenticated'] } }
  }
  // A non-numeric id in the path names no resource: 404, as for an unknown numeric id.
  if (error.code === 'TRIPS_VALIDATION_FAILED' && error.details?.length && error.details.every((d) => d.location === 'params')) {
    const detail = `Nothing matches ${request.url.split('?')[0]}: ids are numeric.`
    return {
      statusCode: 404,
      body: { errors: [{ status: '404', code: 'NOT_FOUND', title: 'Not Found', detail }], meta: { request_id: request.id } }
    }
  }
  const { statusCode, code } = error
  const title = STATUS_CODES[statusCode] ?? 'Error'
  const details = error.details && error.details.length > 0 ? error.details : [{ message: error.message }]
  return {
    statusCode,
    body: {
      errors: details.map((detail) => ({
        status: String(statusCode),
        code,
        title,
        detail: detail.message,
        ...(detail.pointer ? { source: { pointer: detail.pointer === '/' ? '' : detail.pointer } } : {})
      })),
      meta: { request_id: request.id }
    }
  }
}
