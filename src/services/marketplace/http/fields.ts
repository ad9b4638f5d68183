import { Type, type Static, type TSchema } from 'typebox'
import { invalid } from '../errors.js'

/** Field types the modules' request and response schemas are built from. */
export const Text = (maxLength = 250, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) })
export const Ref = (description: string, maxLength = 250) => Type.String({ minLength: 1, maxLength, description })
/**
 * `T | null` as a JSON-schema type list rather than anyOf: the response serialiser then writes it
 * directly instead of validating each value against every branch (much faster on big lists).
 */
export const Nullable = <T extends TSchema>(schema: T) => {
  const raw = schema as unknown as Record<string, unknown>
  return Type.Unsafe<Static<T> | null>({ ...raw, type: [raw.type as string, 'null'] })
}
export const Money = (description: string) =>
  Type.Number({ minimum: 0, maximum: 1_000_000_000, description: `${description} (at most 2 decimals)` })
export const Rate = (description: string) => Type.Number({ minimum: 0, maximum: 100, description: `${description} (percent)` })
export const Quantity = Type.Integer({ minimum: 0, maximum: 1_000_000_000 })
export const ExtraData = Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), {
  description: 'free key/value pairs (keys kept as sent)'
})
export const Enum = (values: readonly string[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {}
  )

/** ISO-8601 date-time, with a zone or taken as UTC; checked again as a real date by `normaliseDateTime`. */
const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?)?(Z|z|[+-]\\d{2}(:?\\d{2})?)?$'
export const DateTime = (description: string) =>
  Type.String({ pattern: DATE_TIME_PATTERN, maxLength: 40, description: `${description} (ISO-8601)` })

/** Normalises an ISO-8601 date-time to the stored form (UTC, milliseconds); a date alone is midnight UTC. */
export function normaliseDateTime(text: string, field: string): string {
  const trimmed = text.trim()
  let candidate = trimmed.replace(' ', 'T')
  if (/^\d{4}-\d{2}-\d{2}$/.test(candidate)) candidate += 'T00:00:00Z'
  else if (!/(Z|z|[+-]\d{2}(:?\d{2})?)$/.test(candidate)) candidate += 'Z'
  const parsed = new Date(candidate)
  const datePart = trimmed.slice(0, 10)
  if (Number.isNaN(parsed.getTime())) throw invalid(field, `${JSON.stringify(text)} is not an ISO-8601 date-time`)
  // new Date() rolls 2021-02-30 over into March; a real calendar date survives the round trip.
  const check = new Date(`${datePart}T00:00:00Z`)
  if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== datePart) {
    throw invalid(field, `${JSON.stringify(text)} is not a real calendar date`)
  }
  return parsed.toISOString()
}

export const RefParams = Type.Object({ merchantReference: Ref('merchant reference', 250) })
