import { AjvCompiler } from '@fastify/ajv-compiler'
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify'

type BuildValidator = (externalSchemas: unknown, ajvOptions: unknown) => FastifySchemaCompiler<unknown>
type ValidatorFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
interface Validator {
  (data: unknown, context?: unknown): unknown
  errors?: unknown
  schemaEnv?: unknown
  /** The schema Ajv compiled this validator from. */
  schema?: unknown
}

const BASE_OPTIONS = { allErrors: true, removeAdditional: true, useDefaults: true } as const

/**
 * Marks bodies whose values are strings by nature (form fields, query parameters): all of them, or
 * the listed top-level properties. A non-enumerable symbol property rather than a WeakMap: a
 * WeakMap entry per request cost ~1.5 µs plus scavenger time on every trips create (CPU profile);
 * the mark is invisible to Ajv, JSON, Object.keys, spreads and structuredClone.
 */
const STRING_SOURCED = Symbol('quartet.stringSourced')
type Mark = true | readonly string[]

function markOf(body: unknown): Mark | undefined {
  return body !== null && typeof body === 'object' ? (body as { [STRING_SOURCED]?: Mark })[STRING_SOURCED] : undefined
}

/**
 * Marks a body as form data: its values were strings on the wire, so validation may coerce them
 * ("5" → 5, "true" → true) as it does for query strings. With `properties`, only those top-level
 * properties are (a JSON body merged with query parameters); everything else is held to its JSON type.
 */
export function markStringSourced<T extends object>(body: T, properties?: Iterable<string>): T {
  const mark: Mark = properties === undefined ? true : [...properties]
  Object.defineProperty(body, STRING_SOURCED, { value: mark, configurable: true })
  return body
}

/** Whether the whole body is form data (markStringSourced without properties). */
export function isFormBody(body: unknown): boolean {
  return markOf(body) === true
}

const FORM_MEDIA_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data'])

/**
 * Two Ajv instances: a coercing one for what arrives as text (path, query string, headers, form
 * bodies) and a strict one for JSON bodies, where `"Quantity": true` or a body `true` is a type
 * error, not a 1 or an "true". Fastify hands every validator only the value, so a body is known to
 * be a form by its content-type schema or by markStringSourced.
 * (A custom compiler also means Fastify no longer lower-cases header schemas; no route has one.)
 */
export const splitCoercionValidators = ((externalSchemas, ajvOptions) => {
  const pool = AjvCompiler() as unknown as BuildValidator
  const options = (ajvOptions ?? {}) as { customOptions?: Record<string, unknown> }
  const coercing = pool(externalSchemas, { ...options, customOptions: { ...options.customOptions, ...BASE_OPTIONS, coerceTypes: 'array' } })
  const strict = pool(externalSchemas, { ...options, customOptions: { ...options.customOptions, ...BASE_OPTIONS, coerceTypes: false } })
  return (route) => {
    if (route.httpPart !== 'body' || (route.contentType !== undefined && FORM_MEDIA_TYPES.has(route.contentType)))
      return finiteNumbers(coercing(route) as Validator)
    // Most bodies are JSON: the coercing twin is compiled on the first form body only.
    let twin: Validator | undefined
    return bodyValidator(strict(route) as Validator, () => (twin ??= finiteNumbers(coercing(route) as Validator)))
  }
}) as BuildValidator as unknown as ValidatorFactory

/**
 * Text coerced to a number must be finite. Ajv coerces "Infinity", "1e309" and a 400-digit
 * string to Infinity and then, with or without strictNumbers, skips minimum/maximum for it, so
 * `limit=Infinity` reached SQLite ("datatype mismatch", a 500). This one check covers every
 * numeric query, path, header and form parameter of every service.
 */
function finiteNumbers(validator: Validator): Validator {
  const validate: Validator = (data, context) => {
    const valid = validator(data, context)
    validate.errors = validator.errors
    if (!valid || data === null || typeof data !== 'object') return valid
    const bad = nonFinite(data as Record<string, unknown>)
    if (bad === undefined) return valid
    validate.errors = [
      {
        instancePath: `/${bad}`,
        schemaPath: '#/finite',
        keyword: 'type',
        params: { type: 'finite number' },
        message: 'must be a finite number'
      }
    ]
    return false
  }
  validate.schemaEnv = validator.schemaEnv
  validate.schema = validator.schema
  return validate
}

function nonFinite(data: Record<string, unknown>): string | undefined {
  for (const key in data) {
    const value = data[key]
    if (typeof value === 'number' && !Number.isFinite(value)) return key
    if (Array.isArray(value) && value.some((item) => typeof item === 'number' && !Number.isFinite(item))) return key
  }
  return undefined
}

function bodyValidator(strict: Validator, coercing: () => Validator): Validator {
  const validate: Validator = (data, context) => {
    const marked = markOf(data)
    let chosen = strict
    if (marked === true) chosen = coercing()
    else if (marked !== undefined && needsCoercion(strict.schema, data as Record<string, unknown>, marked))
      coerceProperties(coercing(), data as Record<string, unknown>, marked)
    const valid = chosen(data, context)
    validate.errors = chosen.errors
    return valid
  }
  // Fastify passes the request as parent data only to validators that look like Ajv's.
  validate.schemaEnv = strict.schemaEnv
  return validate
}

/**
 * Whether coercing would change any of the named properties: not when each is a string that its
 * schema declares a plain string (JSON creates mark every string property castable; copying the
 * body and running the coercing validator for those was measurable on every create). A value of
 * another kind (a repeated query parameter arrives as an array) or a property whose schema is not
 * a plain string (a union, a number, a reference) is coerced as before.
 */
function needsCoercion(schema: unknown, body: Record<string, unknown>, properties: readonly string[]): boolean {
  const shapes = (schema as { properties?: Record<string, { type?: unknown } | undefined> } | undefined)?.properties
  if (shapes === undefined) return true
  for (const name of properties) {
    if (!Object.hasOwn(body, name)) continue
    if (typeof body[name] !== 'string' || shapes[name]?.type !== 'string') return true
  }
  return false
}

/**
 * Coerces only the named properties: the coercing validator runs on a deep copy (so no JSON
 * value is touched), its results for those properties are copied back, and the strict validator
 * then checks the whole body. A property that does not coerce keeps its string and fails there.
 */
function coerceProperties(coercing: Validator, body: Record<string, unknown>, properties: readonly string[]): void {
  const copy = structuredClone(body)
  coercing(copy)
  for (const name of properties) {
    if (Object.hasOwn(body, name) && Object.hasOwn(copy, name)) body[name] = copy[name]
  }
}
