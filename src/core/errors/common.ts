import { defineErrors } from './define.js'

/** Errors of the platform itself, shared by every service (which may render them in its own shape). */
export const commonErrors = {
  VALIDATION_FAILED: { status: 400, message: 'The request is invalid.' },
  MALFORMED_BODY: { status: 400, message: 'The request body could not be parsed.' },
  BAD_REQUEST: { status: 400, message: 'The request could not be understood.' },
  UNAUTHENTICATED: { status: 401, message: 'Authentication is required.' },
  FORBIDDEN: { status: 403, message: 'You are not allowed to do this.' },
  NOT_FOUND: { status: 404, message: 'The resource does not exist.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No route matches this method and path.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'The path exists, but not for this method.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time.' },
  CONFLICT: { status: 409, message: 'The request conflicts with the current state.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request content type is not supported.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry later.' },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is shutting down or not ready.' }
} as const

export type CommonErrorCode = keyof typeof commonErrors

export const commonError = defineErrors(commonErrors)
