import { Type } from 'typebox'

export const ErrorBody = Type.Object({ error: Type.String() })

export const ChatBody = Type.Object({ message: Type.String({ maxLength: 16_000 }) }, { additionalProperties: false })

export const ChatReply = Type.Object({ reply: Type.String() })

export const StreamQuery = Type.Object({
  message: Type.Optional(Type.String({ maxLength: 16_000 })),
  token: Type.Optional(Type.String({ description: 'the API token, for EventSource clients that cannot send headers' }))
})
