import type { FastifyRequest } from 'fastify'
import type { ErrorFormatter } from '../../core/http/errors.js'
import type { ErrorDetail } from '../../core/errors/app-error.js'
import { feedErrors } from '../../core/errors/codes/feed.js'

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

function valueAt(request: FastifyRequest, location: string, segments: string[]): unknown {
  let value: unknown = location === 'body' ? request.body : location === 'query' ? request.query : location === 'params' ? request.params : request.headers
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined
    value = (value as Record<string, unknown>)[segment]
  }
  return value
}

function fieldError(detail: ErrorDetail, request: FastifyRequest): FieldError {
  const location = LOCATIONS[detail.location ?? 'body'] ?? detail.location ?? 'body'
  const segments = (detail.pointer ?? '').split('/').filter(Boolean).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  const param = segments.join('.')
  const value = SECRET_FIELDS.has(param) ? undefined : valueAt(request, location, segments)
  const shown = typeof value === 'string' ? value.slice(0, 200) : typeof value === 'number' || typeof value === 'boolean' ? value : undefined
  return { location, param, path: param, ...(shown !== undefined ? { value: shown } : {}), msg: detail.message }
}

/**
 * Feed errors are the original's `{message, data?}` (data: per-field problems on 422), plus the
 * stable `code`. Schema-validation failures become 422 as the original's validators answered.
 */
export const feedErrorFormatter: ErrorFormatter = (error, request) => {
  let statusCode = error.statusCode
  let message = error.message
  let code: string = error.code
  if (error.code === 'VALIDATION_FAILED') {
    statusCode = 422
    const postRoute = (request.routeOptions.url ?? '').startsWith('/feed/post') && request.method !== 'GET' && request.method !== 'DELETE'
    code = postRoute ? 'FEED_INVALID_POST' : 'FEED_VALIDATION_FAILED'
    message = postRoute ? feedErrors.FEED_INVALID_POST.message : feedErrors.FEED_VALIDATION_FAILED.message
  }
  const data = error.details && error.details.length > 0 ? error.details.map((d) => fieldError(d, request)) : undefined
  return { statusCode, body: { message, code, ...(data ? { data } : {}) } }
}
