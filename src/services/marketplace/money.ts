import { invalid } from './errors.js'

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
