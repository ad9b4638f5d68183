import type { ErrorFormatter } from '../../core/http/errors.js'

/** `/Lines/0/Quantity` → `Lines[0].Quantity` (ASP.NET model-state style keys). */
export function pointerToKey(pointer: string | undefined, location: string | undefined): string {
  const parts = (pointer ?? '').split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
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
    let message = rawField && detail.message.startsWith(`${rawField} `) ? `${key} ${detail.message.slice(rawField.length + 1)}` : detail.message
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
