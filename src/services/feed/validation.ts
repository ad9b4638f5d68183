import type { ErrorDetail } from '../../core/errors/app-error.js'

/** A field problem in the express-validator style the original answered with (rendered by errors.ts). */
export function fieldError(param: string, message: string, location = 'body'): ErrorDetail {
  return { pointer: `/${param}`, location, message }
}

/** The trimmed string, or undefined when the value is not a string. */
export function trimmed(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined
}

// A practical e-mail check (what express-validator's isEmail accepts for ordinary addresses):
// local part and a dotted domain, no spaces, at most 254 characters.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value) && !value.includes('..') && !value.startsWith('.') && !value.split('@')[0]?.endsWith('.')
}

/** PostgreSQL cannot store NUL characters in text: such fields are refused with a clear 422 entry. */
export function nulFieldErrors(input: Record<string, unknown>, fields: string[]): ErrorDetail[] {
  return fields
    .filter((field) => typeof input[field] === 'string' && (input[field] as string).includes('\u0000'))
    .map((field) => fieldError(field, 'Must not contain NUL (\\u0000) characters.'))
}
