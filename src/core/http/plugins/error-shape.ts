import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, type ErrorDetail } from '../../errors/app-error.js'
import { commonErrors, type CommonErrorCode } from '../../errors/common.js'
import { errorSpec } from '../../errors/define.js'
import { isDependencyUnavailable } from '../../db/unavailable.js'

/** Seconds a client is told to wait when a dependency (database, Redis) is unreachable. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5

/** An error reduced to what every service's error shape is built from. */
export interface HttpError {
  statusCode: number
  code: string
  message: string
  details?: ErrorDetail[]
  headers?: Record<string, string>
}

export interface FormattedError {
  statusCode: number
  body: unknown
}

/** What a formatter may read of the request (errors of the HTTP layer itself have no parsed request). */
export type ErrorRequest = Pick<FastifyRequest, 'id' | 'url' | 'method' | 'body' | 'query' | 'params' | 'headers'> & {
  routeOptions: { url?: string | undefined; config?: unknown }
}

/** Turns the common error into one service's wire shape (JSON:API errors[], envelopes, …). */
export type ErrorFormatter = (error: HttpError, request: ErrorRequest) => FormattedError

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
  // A union of literals fails once per literal and once more for its anyOf: one message naming the values instead.
  const literals = new Map<string, unknown[]>()
  for (const issue of issues) {
    if (issue.keyword === 'const')
      literals.set(issue.instancePath ?? '', [...(literals.get(issue.instancePath ?? '') ?? []), issue.params?.allowedValue])
  }
  const named = new Set<string>()
  return issues.flatMap((issue) => {
    const path = issue.instancePath ?? ''
    const values = literals.get(path)
    if (!values || (issue.keyword !== 'const' && issue.keyword !== 'anyOf')) return [detailOf(issue, location)]
    if (named.has(path)) return []
    named.add(path)
    const shown = values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ')
    return [detailOf({ ...issue, keyword: 'enum', message: `must be one of: ${shown}` }, location)]
  })
}

function detailOf(issue: AjvIssue, location: string | undefined): ErrorDetail {
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
}

const fastifyCodeMap: Record<string, CommonErrorCode> = {
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
      statusCode: commonErrors.VALIDATION_FAILED.status,
      code: 'VALIDATION_FAILED',
      message: fe.message ?? commonErrors.VALIDATION_FAILED.message,
      details: validationDetails(fe.validation, fe.validationContext)
    }
  }
  const mapped = fe.code ? fastifyCodeMap[fe.code] : undefined
  if (mapped) {
    return { statusCode: commonErrors[mapped].status, code: mapped, message: fe.message ?? commonErrors[mapped].message }
  }
  if (isDependencyUnavailable(error)) {
    return {
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'A dependency of this service is unavailable; retry later.',
      headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) }
    }
  }
  // PostgreSQL "data exception" class (22xxx): a value the database cannot take (bad encoding,
  // out-of-range number) is the client's input, not a server failure.
  const pgError = error as { code?: unknown; severity?: unknown }
  if (typeof pgError.code === 'string' && /^22[0-9A-Z]{3}$/.test(pgError.code) && pgError.severity !== undefined) {
    return {
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'A value in the request cannot be stored (invalid characters or out of range).'
    }
  }
  if (error instanceof SyntaxError) {
    return { statusCode: 400, code: 'MALFORMED_BODY', message: commonErrors.MALFORMED_BODY.message }
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500
  if (status === 404) return { statusCode: 404, code: 'NOT_FOUND', message: fe.message ?? commonErrors.NOT_FOUND.message }
  if (status === 413) return { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: commonErrors.PAYLOAD_TOO_LARGE.message }
  if (status === 415) return { statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: commonErrors.UNSUPPORTED_MEDIA_TYPE.message }
  if (status === 429) return { statusCode: 429, code: 'RATE_LIMITED', message: commonErrors.RATE_LIMITED.message }
  if (status >= 400 && status < 500) {
    return { statusCode: status, code: 'BAD_REQUEST', message: fe.message ?? commonErrors.BAD_REQUEST.message }
  }
  if (status === 503) return { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: commonErrors.SERVICE_UNAVAILABLE.message }
  return { statusCode: 500, code: 'INTERNAL_ERROR', message: commonErrors.INTERNAL_ERROR.message }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Error code this route's validation failures answer with (e.g. FEED_INVALID_POST). */
    validationCode?: string
  }
}

/**
 * Validation failures (schema or input sanity) answer with the route's validation code, else
 * the service's; the code's table gives the status (422 for trips and feed, 400 elsewhere).
 */
function withValidationCode(httpError: HttpError, request: FastifyRequest, serviceCode: string | undefined): HttpError {
  if (httpError.code !== 'VALIDATION_FAILED') return httpError
  const code = request.routeOptions?.config?.validationCode ?? serviceCode
  const spec = code ? errorSpec(code) : undefined
  if (!code || !spec) return httpError
  return { ...httpError, code, statusCode: spec.status, message: spec.message }
}

export function createErrorHandler(format: ErrorFormatter, validationCode?: string) {
  return function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const httpError = withValidationCode(toHttpError(error), request, validationCode)
    if (httpError.code === 'SERVICE_UNAVAILABLE') {
      // An outage fails every request alike: one line each, without a stack.
      request.log.warn({ code: (error as { code?: unknown }).code, message: (error as Error).message }, 'dependency unavailable')
    } else if (httpError.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed')
    } else {
      request.log.debug({ code: httpError.code, message: httpError.message }, 'request rejected')
    }
    const formatted = format(httpError, request)
    if (httpError.headers) void reply.headers(httpError.headers)
    return reply.code(formatted.statusCode).type('application/json; charset=utf-8').send(formatted.body)
  }
}

const CLIENT_ERRORS: Record<string, { status: number; code: CommonErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request was not received in time.' },
  ERR_HTTP_HEADERS_TIMEOUT: { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request headers were not received in time.' },
  // A URL pasted with "é", a space or a quote in it: the HTTP parser refuses the raw byte.
  HPE_INVALID_URL: {
    status: 400,
    code: 'BAD_REQUEST',
    message:
      'The URL has unencoded characters (a space, a quote or a non-ASCII letter such as é): ' +
      'percent-encode them, e.g. café → caf%C3%A9 (curl -G --data-urlencode does it).'
  }
}

/** A request line with a space in its URL ("GET /x?q=two words HTTP/1.1"): the parser calls it a bad version or method. */
function spaceInUrl(error: Error & { rawPacket?: unknown }): boolean {
  if (!Buffer.isBuffer(error.rawPacket)) return false
  const end = error.rawPacket.indexOf('\r\n')
  const line = error.rawPacket.subarray(0, end === -1 ? Math.min(error.rawPacket.length, 8192) : end).toString('latin1')
  return /^[A-Z]+ \S+( \S+)+ HTTP\/\d(\.\d)?$/.test(line)
}

/**
 * Errors Node's HTTP parser raises before there is a request (headers too large, timeouts,
 * malformed HTTP): answered in the service's own shape, then the connection is closed.
 */
export function clientErrorHandler(format: ErrorFormatter, logger: FastifyBaseLogger) {
  return (error: Error & { code?: string }, socket: Socket) => {
    const known = error.code ? CLIENT_ERRORS[spaceInUrl(error) ? 'HPE_INVALID_URL' : error.code] : undefined
    const statusCode = known?.status ?? 400
    logger.debug({ code: error.code, statusCode }, 'client error')
    // A response already under way (headers sent) cannot take a second one without corrupting it.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy()
      return
    }
    // Closed once the answer is flushed: a client that never half-closes must not keep the socket.
    const answer = rawErrorResponse(format, {
      statusCode,
      code: known?.code ?? 'BAD_REQUEST',
      message: known?.message ?? 'The request could not be parsed as HTTP.'
    })
    socket.end(answer, () => socket.destroy())
  }
}

/** A complete HTTP/1.1 error response in the service's shape, for sockets no request owns; it closes the connection. */
export function rawErrorResponse(format: ErrorFormatter, error: HttpError): string {
  const request: ErrorRequest = {
    id: randomUUID(),
    url: '',
    method: '',
    body: undefined,
    query: {},
    params: {},
    headers: {},
    routeOptions: {}
  }
  const formatted = format(error, request)
  const body = JSON.stringify(formatted.body)
  const extra = Object.entries(error.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  return (
    `HTTP/1.1 ${formatted.statusCode} ${STATUS_CODES[formatted.statusCode] ?? 'Error'}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    `x-request-id: ${request.id}\r\n` +
    extra +
    'connection: close\r\n\r\n' +
    body
  )
}
