import type { ErrorFormatter, ErrorRequest } from '../../core/http/plugins/error-shape.js'
import type { ErrorDetail } from '../../core/errors/app-error.js'
import { commonErrors, type CommonErrorCode } from '../../core/errors/common.js'
import { defineErrors } from '../../core/errors/define.js'

/** Error codes of the feed service. Messages are the original course API's where it had one. */
export const feedErrors = {
  FEED_VALIDATION_FAILED: { status: 422, message: 'Validation failed.' },
  FEED_INVALID_POST: { status: 422, message: 'Validation failed, entered data is incorrect.' },
  FEED_NOT_AUTHENTICATED: { status: 401, message: 'Not authenticated.' },
  FEED_TOKEN_INVALID: { status: 401, message: 'Not authenticated: the token is invalid or has expired; log in again.' },
  FEED_EMAIL_UNKNOWN: { status: 401, message: 'A user with this email could not be found.' },
  FEED_WRONG_PASSWORD: { status: 401, message: 'Wrong password!' },
  FEED_USER_NOT_FOUND: { status: 404, message: 'User not found.' },
  FEED_POST_NOT_FOUND: { status: 404, message: 'Could not find post.' },
  FEED_NOT_AUTHORIZED: { status: 403, message: 'Not authorized!' },
  FEED_NO_IMAGE: { status: 422, message: 'No image provided.' },
  FEED_NO_FILE_PICKED: { status: 422, message: 'No file picked.' },
  FEED_IMAGE_INVALID: { status: 422, message: 'The image must be a PNG or JPEG file.' },
  FEED_IMAGE_TOO_LARGE: { status: 422, message: 'The image is too large.' },
  FEED_IMAGE_UNKNOWN: { status: 422, message: 'The image path does not name an image you may use.' },
  FEED_IMAGE_NOT_FOUND: { status: 404, message: 'Image not found.' },
  FEED_MULTIPART_INVALID: { status: 400, message: 'The multipart body could not be read.' },
  FEED_TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many attempts from your address; try again later.' },
  FEED_LOGIN_LOCKED: { status: 429, message: 'Too many failed logins for this e-mail address; try again later.' }
} as const

export type FeedErrorCode = keyof typeof feedErrors | CommonErrorCode

/** Raises one of this service's errors, or a common one. */
export const feedError = defineErrors({ ...commonErrors, ...feedErrors })

/** One field problem, express-validator style as the original's 422 `data` held (plus `path`). */
export interface FieldError {
  location: string
  param: string
  path: string
  value?: unknown
  msg: string
}

const LOCATIONS: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' }
const SECRET_FIELDS = new Set(['password', 'authorization'])

function valueAt(request: ErrorRequest, location: string, segments: string[]): unknown {
  let value: unknown =
    location === 'body' ? request.body : location === 'query' ? request.query : location === 'params' ? request.params : request.headers
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined
    value = (value as Record<string, unknown>)[segment]
  }
  return value
}

/** A field problem in the express-validator style the original answered with (rendered below). */
export function fieldError(param: string, message: string, location = 'body'): ErrorDetail {
  return { pointer: `/${param}`, location, message }
}

function toFieldError(detail: ErrorDetail, request: ErrorRequest): FieldError {
  const location = LOCATIONS[detail.location ?? 'body'] ?? detail.location ?? 'body'
  const segments = (detail.pointer ?? '')
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  const param = segments.join('.')
  const value = SECRET_FIELDS.has(param) ? undefined : valueAt(request, location, segments)
  const shown =
    typeof value === 'string' ? value.slice(0, 200) : typeof value === 'number' || typeof value === 'boolean' ? value : undefined
  return { location, param, path: param, ...(shown !== undefined ? { value: shown } : {}), msg: detail.message }
}

/**
 * Feed errors are the original's `{message, data?}` (data: per-field problems on 422), plus the
 * stable `code`. Validation failures arrive as FEED_VALIDATION_FAILED or, on the post-writing
 * routes, FEED_INVALID_POST (both 422, as the original's validators answered).
 */
export const feedErrorFormatter: ErrorFormatter = (error, request) => {
  const data = error.details && error.details.length > 0 ? error.details.map((d) => toFieldError(d, request)) : undefined
  return { statusCode: error.statusCode, body: { message: error.message, code: error.code, ...(data ? { data } : {}) } }
}
