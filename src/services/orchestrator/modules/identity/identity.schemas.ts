import { Type } from 'typebox'

export const ErrorBody = Type.Object({ error: Type.String(), reason: Type.Optional(Type.String()) })

export const Me = Type.Object({
  authenticated: Type.Literal(true),
  mode: Type.Union([Type.Literal('static'), Type.Literal('oidc'), Type.Literal('local')]),
  subject: Type.String(),
  tenant: Type.String(),
  tenantClaimed: Type.Boolean(),
  role: Type.String(),
  roles: Type.Array(Type.String()),
  sub: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  preferredUsername: Type.Optional(Type.String())
})

export const ExchangeBody = Type.Object(
  { code: Type.Optional(Type.String({ maxLength: 4096 })), code_verifier: Type.Optional(Type.String({ maxLength: 256 })) },
  { additionalProperties: false }
)

export const ExchangeResult = Type.Object({
  token: Type.String(),
  expiresAt: Type.String(),
  claims: Type.Object({
    sub: Type.String(),
    email: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    preferredUsername: Type.Optional(Type.String()),
    role: Type.Optional(Type.String()),
    tenant: Type.Optional(Type.String())
  })
})
