import { Type, type TSchema } from 'typebox'
import { Nullable } from './fields.js'

/**
 * The G2 envelope every /v2 response is wrapped in: {StatusCode, Success, Message,
 * ValidationErrors, Content}, plus Count, TotalCount and ItemsPerPage on lists. Errors use the
 * same shape (see marketplaceErrorFormatter).
 */
export const EnvelopeFields = {
  StatusCode: Type.Integer(),
  Success: Type.Boolean(),
  Message: Nullable(Type.String()),
  ValidationErrors: Type.Record(Type.String(), Type.Array(Type.String()))
}
export const Single = <T extends TSchema>(content: T) => Type.Object({ ...EnvelopeFields, Content: content })
export const Collection = <T extends TSchema>(item: T) =>
  Type.Object({
    ...EnvelopeFields,
    Content: Type.Array(item),
    Count: Type.Integer({ description: 'items in this response' }),
    TotalCount: Type.Integer({ description: 'items on all pages' }),
    ItemsPerPage: Type.Integer()
  })
const ErrorEnvelope = Type.Object({
  ...EnvelopeFields,
  Content: Type.Null(),
  RequestId: Type.String({ description: 'also in the x-request-id header' })
})
export const EmptyEnvelope = Single(Type.Null())

/** The error responses of a route: 400 and 401 always, plus `codes`. */
export const errorResponses = (...codes: number[]) => Object.fromEntries([400, 401, ...codes].map((c) => [c, ErrorEnvelope]))
/** Every /v2 route takes the key as the apikey query parameter or the X-CE-KEY header. */
export const security: Record<string, string[]>[] = [{ apikey: [] }, { apikeyHeader: [] }]

export const ok = <T>(content: T, statusCode = 200) => ({
  StatusCode: statusCode,
  Success: true,
  Message: null,
  ValidationErrors: {},
  Content: content
})
export const page = <T>(items: T[], total: number, perPage: number) => ({
  ...ok(items),
  Count: items.length,
  TotalCount: total,
  ItemsPerPage: perPage
})
/** A 201 (or 200) with no content and a sentence saying what was done. */
export const done = (message: string, statusCode = 201) => ({ ...ok(null, statusCode), Message: message })
