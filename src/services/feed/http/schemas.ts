import { Type } from 'typebox'

/** Response schemas and security requirements every route module of the feed shares. */

const FieldErrorSchema = Type.Object({
  location: Type.String({ description: 'body, query or params' }),
  param: Type.String({ description: 'the field' }),
  path: Type.String({ description: 'the field (express-validator 7 name)' }),
  value: Type.Optional(Type.Unknown({ description: 'the value sent (never for passwords)' })),
  msg: Type.String()
})

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    code: Type.String({ description: 'stable error code (docs/errors.md)' }),
    data: Type.Optional(Type.Array(FieldErrorSchema, { description: 'per-field problems of a 422' }))
  },
  { description: 'Error: {message, code, data?}' }
)

export const TooManyAttempts = Type.Object(
  {
    message: Type.String(),
    code: Type.String({ description: 'FEED_TOO_MANY_ATTEMPTS (this client) or FEED_LOGIN_LOCKED (this e-mail address)' })
  },
  { description: 'Too many attempts; the retry-after header gives the seconds to wait' }
)

export const MessageResponse = Type.Object({ message: Type.String() })

export const openAccess: never[] = []
export const bearerAccess = [{ bearer: [] }]
