import type { ErrorDetail } from '../../core/errors/app-error.js'
import { fieldError } from './errors.js'

/** Rules for the free-text fields the users and posts services accept. */

/** The trimmed string, or undefined when the value is not a string. */
export function trimmed(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined
}

/** PostgreSQL cannot store NUL characters in text: such fields are refused with a clear 422 entry. */
export function nulFieldErrors(input: Record<string, unknown>, fields: string[]): ErrorDetail[] {
  return fields
    .filter((field) => typeof input[field] === 'string' && (input[field] as string).includes('\u0000'))
    .map((field) => fieldError(field, 'Must not contain NUL (\\u0000) characters.'))
}
