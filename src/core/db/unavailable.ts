/** Socket errors of a dependency that cannot be reached or dropped the connection. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND'])

/**
 * PostgreSQL SQLSTATEs meaning "the server cannot serve you now": connection exceptions (08xxx),
 * too many connections / out of resources (53xxx), shutdown and start-up (57P01–57P03).
 */
const PG_UNAVAILABLE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123])$/

/** SQLite: the file is locked past busy_timeout — the load will pass, the request may be retried. */
const SQLITE_BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED'])

/** What node-postgres and ioredis say, without a code, when their connection is gone or never came. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Connection is closed\.?$/,
  /^Stream isn't writeable/,
  /^Reached the max retries per request limit/
]

/**
 * True when an error means a dependency (PostgreSQL, Redis, the SQLite file lock) cannot serve
 * the request right now — a 503 the client may retry — rather than a bug. Follows `cause` and the
 * attempts of an AggregateError (a host name that resolves to several addresses).
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false
  const { code, name, message, cause, errors } = error as {
    code?: unknown
    name?: unknown
    message?: unknown
    cause?: unknown
    errors?: unknown
  }
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code) || SQLITE_BUSY.has(code))) return true
  if (name === 'MaxRetriesPerRequestError') return true
  if (typeof message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(message))) return true
  if (Array.isArray(errors) && errors.some((inner) => isDependencyUnavailable(inner, depth + 1))) return true
  return cause !== undefined && isDependencyUnavailable(cause, depth + 1)
}
