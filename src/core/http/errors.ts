import { STATUS_CODES } from 'node:http'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, type ErrorDetail } from '../errors/app-error.js'
import { errorCatalogue, type ErrorCode } from '../errors/catalogue.js'

/** An error reduced to what every service's error shape is built from. */
export interface HttpError {
  statusCode: number
  code: ErrorCode
  message: string
  details?: ErrorDetail[]
  headers?: Record<string, string>
}

export interface FormattedError {
  statusCode: number
  body: unknown
}

/** Turns the common error into one service's wire shape (JSON:API errors[], envelopes, …). */
export type ErrorFormatter = (error: HttpError, request: FastifyRequest) => FormattedError

export const defaultErrorFormatter: ErrorFormatter = (error, request) => ({
  statusCode: error.statusCode,
  body: {
    statusCode: error.statusCode,
    code: error.code,
    error: STATUS_CODES[error.statusCode] ?? 'Error',
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
    requestId: request.id
  }
})

interface AjvIssue {
  instancePath?: string
  message?: string
  keyword?: string
  params?: Record<string, unknown>
}

function validationDetails(issues: AjvIssue[], location: string | undefined): ErrorDetail[] {
  return issues.map((issue) => {
    let pointer = issue.instancePath ?? ''
    const missing = issue.params?.missingProperty
    if (issue.keyword === 'required' && typeof missing === 'string') pointer = `${pointer}/${missing}`
    const additional = issue.params?.additionalProperty
    if (issue.keyword === 'additionalProperties' && typeof additional === 'string') pointer = `${pointer}/${additional}`
    const field = pointer.replace(/^\//, '') || location || 'request'
    return {
      pointer: pointer || '/',
      ...(location ? { location } : {}),
      message: `${field} ${issue.message ?? 'is invalid'}`
    }
  })
}

const fastifyCodeMap: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'MALFORMED_BODY',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_REQ_FILE_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_PARTS_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_FILES_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_FIELDS_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_VALIDATION: 'VALIDATION_FAILED'
}

/** Maps anything thrown in a request to the common error; unknown errors become a masked 500. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof AppError) {
    return {
      statusCode: error.statusCode,
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      ...(error.headers ? { headers: error.headers } : {})
    }
  }
  const fe = error as Partial<FastifyError> & { validation?: AjvIssue[]; validationContext?: string }
  if (Array.isArray(fe.validation)) {
    return {
      statusCode: errorCatalogue.VALIDATION_FAILED.status,
      code: 'VALIDATION_FAILED',
      message: fe.message ?? errorCatalogue.VALIDATION_FAILED.message,
      details: validationDetails(fe.validation, fe.validationContext)
    }
  }
  const mapped = fe.code ? fastifyCodeMap[fe.code] : undefined
  if (mapped) {
    return { statusCode: errorCatalogue[mapped].status, code: mapped, message: fe.message ?? errorCatalogue[mapped].message }
  }
  // PostgreSQL "data exception" class (22xxx): a value the database cannot take (bad encoding,
  // out-of-range number) is the client's input, not a server failure.
  const pgError = error as { code?: unknown; severity?: unknown }
  if (typeof pgError.code === 'string' && /^22[0-9A-Z]{3}$/.test(pgError.code) && pgError.severity !== undefined) {
    return { statusCode: 400, code: 'VALIDATION_FAILED', message: 'A value in the request cannot be stored (invalid characters or out of range).' }
  }
  if (error instanceof SyntaxError) {
    return { statusCode: 400, code: 'MALFORMED_BODY', message: errorCatalogue.MALFORMED_BODY.message }
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500
  if (status === 404) return { statusCode: 404, code: 'NOT_FOUND', message: fe.message ?? errorCatalogue.NOT_FOUND.message }
  if (status === 413) return { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: errorCatalogue.PAYLOAD_TOO_LARGE.message }
  if (status === 415) return { statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: errorCatalogue.UNSUPPORTED_MEDIA_TYPE.message }
  if (status === 429) return { statusCode: 429, code: 'RATE_LIMITED', message: errorCatalogue.RATE_LIMITED.message }
  if (status >= 400 && status < 500) {
    return { statusCode: status, code: 'BAD_REQUEST', message: fe.message ?? errorCatalogue.BAD_REQUEST.message }
  }
  if (status === 503) return { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: errorCatalogue.SERVICE_UNAVAILABLE.message }
  return { statusCode: 500, code: 'INTERNAL_ERROR', message: errorCatalogue.INTERNAL_ERROR.message }
}

export function createErrorHandler(format: ErrorFormatter) {
  return function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const httpError = toHttpError(error)
    if (httpError.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed')
    } else {
      request.log.debug({ code: httpError.code, message: httpError.message }, 'request rejected')
    }
    const formatted = format(httpError, request)
    if (httpError.headers) void reply.headers(httpError.headers)
    return reply.code(formatted.statusCode).type('application/json; charset=utf-8').send(formatted.body)
  }
}
