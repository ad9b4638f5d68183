import { Type } from 'typebox'

export const SignupBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254, description: 'a valid e-mail address, not yet registered (case-insensitive)' })),
  password: Type.Optional(Type.String({ maxLength: 1024, description: 'at least 5 characters (trimmed)' })),
  name: Type.Optional(Type.String({ maxLength: 200, description: 'display name, not empty (trimmed)' })),
  username: Type.Optional(Type.String({ maxLength: 200, description: 'alias of name' }))
})
export const SignupResponse = Type.Object({ message: Type.String(), userId: Type.String() })

export const LoginBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  password: Type.Optional(Type.String({ maxLength: 1024 }))
})
export const LoginResponse = Type.Object({
  token: Type.String({ description: 'HS256 JWT, payload {email, userId}, valid 1 hour' }),
  userId: Type.String()
})

export const StatusResponse = Type.Object({ status: Type.String() })
export const StatusBody = Type.Object({ status: Type.Optional(Type.String({ maxLength: 500, description: 'not empty (trimmed)' })) })
