import { Type, type TSchema } from 'typebox'

/**
 * The JSON:API-style building blocks every trips module uses: path and body primitives, the
 * resource envelope, the error bodies and the two renderings of flags ("seed" and "original").
 */

/** "seed" renders what the seed shows; "original" what the original Rails API and its React client use. */
export type Compat = 'seed' | 'original'

export const IdParam = Type.String({ pattern: '^[0-9]{1,15}$', description: 'numeric id' })
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 })
export const Text = (description: string, maxLength = 10_000) => Type.String({ minLength: 1, maxLength, description })
export const Flag = (description: string) => Type.Boolean({ description: `${description} (true/false, also as strings)` })
// Closed objects: unknown parameters are dropped before handlers see them (as Rails' strong
// parameters did), never passed on.
export const closed = { additionalProperties: false } as const

export const idParams = Type.Object({ id: IdParam })
export const userParams = Type.Object({ user_id: IdParam })
export const userTourParams = Type.Object({ user_id: IdParam, tour_id: IdParam })

export const PARAMS_NOTE = 'Parameters may be sent as query string, JSON body or form body.'
export const security = [{ bearer: [] }]

// Responses: exact shapes so Fastify serialises them fast and the OpenAPI document is complete.
export const resource = (type: string, attributes: TSchema) => Type.Object({ id: Type.String(), type: Type.Literal(type), attributes })
export const one = (schema: TSchema) => Type.Object({ data: schema })
export const many = (schema: TSchema) => Type.Object({ data: Type.Array(schema) })

/** The schema of a stored 0/1 flag as it is rendered. */
export function flagSchema(compat: Compat): TSchema {
  // A string enum, not a union of literals: fast-json-stringify serialises it without trying branches.
  return compat === 'original' ? Type.Boolean() : Type.Unsafe<'true' | 'false'>({ type: 'string', enum: ['true', 'false'] })
}

/** A stored 0/1 flag as rendered: the seed's "true"/"false" strings, or JSON booleans. */
export function flagRenderer(compat: Compat): (value: number) => boolean | 'true' | 'false' {
  return compat === 'original' ? (v) => v === 1 : (v) => (v === 1 ? 'true' : 'false')
}

export const JsonApiErrors = Type.Object({
  errors: Type.Array(
    Type.Object({
      status: Type.String(),
      code: Type.String(),
      title: Type.String(),
      detail: Type.String(),
      source: Type.Optional(Type.Object({ pointer: Type.Optional(Type.String()), parameter: Type.Optional(Type.String()) }))
    })
  ),
  meta: Type.Object({ request_id: Type.String() })
})
export const NotAuthenticated = Type.Object({ errors: Type.Array(Type.Literal('Not Authenticated')) })
