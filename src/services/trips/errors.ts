import { STATUS_CODES } from 'node:http'
import type { ErrorFormatter } from '../../core/http/errors.js'

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
  if (error.code === 'VALIDATION_FAILED' && error.details?.every((d) => d.location === 'params')) {
    const detail = `Nothing matches ${request.url.split('?')[0]}: ids are numeric.`
    return {
      statusCode: 404,
      body: { errors: [{ status: '404', code: 'NOT_FOUND', title: 'Not Found', detail }], meta: { request_id: request.id } }
    }
  }
  const validation = error.code === 'VALIDATION_FAILED' || error.code === 'TRIPS_VALIDATION_FAILED'
  const statusCode = validation ? 422 : error.statusCode
  const code = validation ? 'TRIPS_VALIDATION_FAILED' : error.code
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
