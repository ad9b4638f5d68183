import type { AppError } from '../../core/errors/app-error.js'
import { isUniqueViolation } from '../../core/db/errors.js'
import type { ErrorFormatter } from '../../core/http/plugins/error-shape.js'
import { commonErrors, type CommonErrorCode } from '../../core/errors/common.js'
import { defineErrors } from '../../core/errors/define.js'

/** Error codes of the marketplace service (rendered in the G2 envelope). */
export const marketplaceErrors = {
  MARKETPLACE_VALIDATION_FAILED: { status: 400, message: 'The request is invalid.' },
  MARKETPLACE_API_KEY_MISSING: {
    status: 401,
    message: 'No API key supplied: pass it as the apikey query parameter or the X-CE-KEY header.'
  },
  MARKETPLACE_API_KEY_UNKNOWN: { status: 401, message: 'API key is unknown.' },
  MARKETPLACE_MERCHANT_ONLY: { status: 403, message: 'This operation needs a merchant API key; a channel key cannot use it.' },
  MARKETPLACE_CHANNEL_ONLY: { status: 403, message: 'This operation needs a channel API key; a merchant key cannot use it.' },
  MARKETPLACE_ORDER_NOT_FOUND: { status: 404, message: 'No such order.' },
  MARKETPLACE_ORDER_LINE_NOT_FOUND: { status: 404, message: 'No such order line.' },
  MARKETPLACE_PRODUCT_NOT_FOUND: { status: 404, message: 'No such product.' },
  MARKETPLACE_BACKORDER_NOT_FOUND: { status: 404, message: 'No such backorder.' },
  MARKETPLACE_CANCELLATION_NOT_FOUND: { status: 404, message: 'No such cancellation.' },
  MARKETPLACE_SHIPMENT_NOT_FOUND: { status: 404, message: 'No such shipment.' },
  MARKETPLACE_RETURN_NOT_FOUND: { status: 404, message: 'No such return.' },
  MARKETPLACE_DUPLICATE_CHANNEL_ORDER: { status: 409, message: 'This channel already created an order with this ChannelReference.' },
  MARKETPLACE_ALREADY_ACKNOWLEDGED: { status: 409, message: 'The order has already been acknowledged.' },
  MARKETPLACE_DUPLICATE_MERCHANT_REFERENCE: { status: 409, message: 'This merchant reference is already in use.' },
  MARKETPLACE_ORDER_NOT_OPEN: { status: 409, message: 'The order has no open quantity left for this operation.' },
  MARKETPLACE_QUANTITY_EXCEEDED: { status: 400, message: 'A line quantity exceeds what is open on the order line.' },
  MARKETPLACE_PRODUCT_DEACTIVATED: { status: 409, message: 'The product was deactivated; its reference cannot be reused.' },
  MARKETPLACE_PRODUCT_NESTING: { status: 400, message: 'Products nest one level only: a child cannot have children.' },
  MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE: {
    status: 409,
    message: 'This ChannelReference is already used by another product of this channel.'
  },
  MARKETPLACE_UNKNOWN_CHANNEL_REFERENCE: { status: 400, message: 'A ChannelReference was never acknowledged in Created by this channel.' }
} as const

export type MarketplaceErrorCode = keyof typeof marketplaceErrors | CommonErrorCode

/** Raises one of this service's errors, or a common one. */
export const marketplaceError = defineErrors({ ...commonErrors, ...marketplaceErrors })

/** A 400 naming the field (PascalCase path such as "Lines[0].Quantity") and what is wrong with it. */
export function invalid(field: string, message: string): AppError {
  // "Lines[0].Quantity" → "/Lines/0/Quantity" (the formatter turns it back into the key).
  const pointer = `/${field
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .join('/')}`
  return marketplaceError('MARKETPLACE_VALIDATION_FAILED', `${field}: ${message}`, { details: [{ pointer, location: 'body', message }] })
}

/** Runs a write; a unique-constraint violation (a concurrent or repeated write) becomes `conflict()`. */
export async function uniqueViolationAs<T>(write: () => Promise<T>, conflict: () => AppError): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict()
    throw error
  }
}

/** `/Lines/0/Quantity` → `Lines[0].Quantity` (ASP.NET model-state style keys). */
export function pointerToKey(pointer: string | undefined, location: string | undefined): string {
  const parts = (pointer ?? '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  let key = ''
  for (const part of parts) key += /^\d+$/.test(part) ? `[${part}]` : key ? `.${part}` : part
  if (key) return key
  if (location === 'querystring') return 'query'
  if (location === 'params') return 'path'
  return location === 'body' || !location ? 'body' : location
}

/**
 * Marketplace errors are the G2 envelope: StatusCode mirrors the HTTP status, Success is false,
 * Message explains, ValidationErrors maps each invalid field (PascalCase path) to its messages,
 * Content is null. Schema failures (VALIDATION_FAILED) become 400 with one key per field.
 */
export const marketplaceErrorFormatter: ErrorFormatter = (error, request) => {
  const collected = new Map<string, string[]>()
  for (const detail of error.details ?? []) {
    const key = pointerToKey(detail.pointer, detail.location)
    const rawField = (detail.pointer ?? '').replace(/^\//, '')
    // The schema validator starts messages with the slash path; show the dotted one instead.
    let message =
      rawField && detail.message.startsWith(`${rawField} `) ? `${key} ${detail.message.slice(rawField.length + 1)}` : detail.message
    message = message.replace(/ must have required property '[^']*'$/, ' is required')
    const list = collected.get(key)
    if (list) list.push(message)
    else collected.set(key, [message])
  }
  // Field names come from the request: keep them own properties ("valueOf", "__proto__").
  const validationErrors: Record<string, string[]> = Object.fromEntries(collected)
  let message = error.message
  if (error.code === 'VALIDATION_FAILED') {
    const fields = Object.keys(validationErrors)
    message = fields.length > 0 ? `The request is invalid: ${Object.values(validationErrors).flat().join('; ')}` : 'The request is invalid.'
  }
  return {
    statusCode: error.statusCode,
    body: {
      StatusCode: error.statusCode,
      Success: false,
      Message: message,
      ValidationErrors: validationErrors,
      Content: null,
      RequestId: request.id
    }
  }
}
