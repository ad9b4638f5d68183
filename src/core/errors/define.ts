import { AppError, type AppErrorOptions } from './app-error.js'

export interface ErrorSpec {
  status: number
  /** Default human message; a thrower may give a more specific one. */
  message: string
}

export type ErrorTable = Record<string, ErrorSpec>

/** Raises one of a table's errors (the code picks status and default message). */
export type ErrorFactory<Code extends string> = (code: Code, message?: string, options?: AppErrorOptions) => AppError

const defined = new Map<string, ErrorSpec>()

/**
 * Defines a service's error table (Fastify's createError is the model: code → status and
 * message) and returns the factory its code throws with. Codes are stable — clients switch on
 * them — and one code keeps one status across every table that names it.
 */
export function defineErrors<T extends ErrorTable>(table: T): ErrorFactory<keyof T & string> {
  for (const [code, spec] of Object.entries(table)) {
    const existing = defined.get(code)
    if (existing && existing.status !== spec.status) throw new Error(`error code ${code} is defined twice with different statuses`)
    defined.set(code, spec)
  }
  return (code, message, options) => {
    const spec = table[code] as ErrorSpec
    return new AppError(code, spec.status, message ?? spec.message, options)
  }
}

/** Status and default message of a defined code (undefined for codes no table defines). */
export function errorSpec(code: string): ErrorSpec | undefined {
  return defined.get(code)
}

/** Every code defined so far, by the tables of the modules loaded. */
export function definedErrors(): ReadonlyMap<string, ErrorSpec> {
  return defined
}
