import { Type } from 'typebox'
import { closed, many, one, resource, Text, type Compat } from '../../http/jsonapi.js'

const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+$'
const UserFields = {
  user_name: Text('display name', 200),
  email_address: Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL_PATTERN, description: 'unique, case-insensitive' }),
  emergency_contact_name: Text('emergency contact (default "nil")', 200),
  emergency_number: Text('emergency phone number (default "nil")', 100)
}

export const CreateUserBody = Type.Object(
  {
    user_name: UserFields.user_name,
    email_address: UserFields.email_address,
    emergency_contact_name: Type.Optional(UserFields.emergency_contact_name),
    emergency_number: Type.Optional(UserFields.emergency_number)
  },
  closed
)
export const UpdateUserBody = Type.Partial(Type.Object(UserFields), closed)

export const UserParams = Type.Object({ email_address: Type.String({ minLength: 1, maxLength: 254 }) })

export const UserResource = resource(
  'user',
  Type.Object({
    user_name: Type.String(),
    email_address: Type.String(),
    emergency_contact_name: Type.String(),
    emergency_number: Type.String()
  })
)

export function userResponses(compat: Compat) {
  return {
    user: one(UserResource),
    // The original client reads a user lookup as an array.
    userLookup: compat === 'original' ? many(UserResource) : one(UserResource)
  }
}
