import { AppError } from '../../core/errors/app-error.js'

/** A 400 naming the field (PascalCase path such as "Lines[0].Quantity") and what is wrong with it. */
export function invalid(field: string, message: string): AppError {
  return new AppError('MARKETPLACE_VALIDATION_FAILED', `${field}: ${message}`, { details: [{ pointer: toPointer(field), location: 'body', message }] })
}

/** "Lines[0].Quantity" → "/Lines/0/Quantity" (the formatter turns it back into the key). */
export function toPointer(field: string): string {
  return `/${field.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean).join('/')}`
}

/** Money is stored exactly, as integer minor units; more than 2 decimals is refused rather than rounded. */
export function toCents(value: number, field: string): number {
  const cents = Math.round(value * 100)
  if (!Number.isFinite(value) || Math.abs(cents - value * 100) > 1e-6 * Math.max(1, Math.abs(value))) {
    throw invalid(field, `${value} has more than 2 decimals`)
  }
  return cents
}

export function optionalCents(value: number | null | undefined, field: string): number | null {
  return value === undefined || value === null ? null : toCents(value, field)
}

export const fromCents = (cents: number | null): number | null => (cents === null ? null : Number(cents) / 100)
export const money = (cents: number): number => Number(cents) / 100

/** Rates (VAT, fees, discounts) are kept as the decimal text of the number sent. */
export const rateText = (value: number | null | undefined): string => (value === undefined || value === null ? '0' : String(value))

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

/** Splits a list into chunks small enough for one IN (...) list on every dialect. */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T
}
