import type { AppError } from '../../errors/app-error.js'
import { commonError } from '../../errors/common.js'
import type { App } from '../server.js'

export interface Unstorable {
  pointer: string
  problem: string
}

const NUL_IN_URL = /%00/i

/**
 * The first value no database stores faithfully: a string or property name with NUL (PostgreSQL
 * rejects it, SQLite would keep it) or a non-finite number (JSON "1e309" and query "Infinity"
 * parse to Infinity, which neither dialect stores and every bound check lets through).
 */
export function findUnstorable(value: unknown, path = '', depth = 0): Unstorable | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { pointer: path, problem: 'must be a finite number' }
  if (typeof value === 'string') return value.includes('\u0000') ? { pointer: path, problem: 'must not contain NUL characters' } : undefined
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], `${path}/${i}`, depth + 1)
      if (found) return found
    }
    return undefined
  }
  for (const key in value) {
    if (key.includes('\u0000'))
      return { pointer: `${path}/${key.split('\u0000').join('')}`, problem: 'has a property name with a NUL character' }
    const found = findUnstorable((value as Record<string, unknown>)[key], `${path}/${key}`, depth + 1)
    if (found) return found
  }
  return undefined
}

export function unstorableError(found: Unstorable, location: string): AppError {
  const field = found.pointer.replace(/^\//, '') || location
  return commonError('VALIDATION_FAILED', undefined, {
    details: [{ pointer: found.pointer || '/', location, message: `${field} ${found.problem}` }]
  })
}

/**
 * One check of every request's input for values no database can store: the raw URL first, then
 * the body before validation, then params, query and body after the validator coerced them.
 * Multipart fields are parsed by their routes and checked there with findUnstorable.
 */
export function inputSanity(app: App): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (NUL_IN_URL.test(request.url))
      done(
        commonError('VALIDATION_FAILED', 'NUL characters are not allowed in the URL.', {
          details: [{ pointer: '/', message: 'the URL contains a NUL character' }]
        })
      )
    else done()
  })
  app.addHook('preValidation', (request, _reply, done) => {
    const found = findUnstorable(request.body)
    done(found ? unstorableError(found, 'body') : undefined)
  })
  app.addHook('preHandler', (request, _reply, done) => {
    for (const [location, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body]
    ] as const) {
      const found = findUnstorable(value)
      if (found) {
        done(unstorableError(found, location))
        return
      }
    }
    done()
  })
}
