import { Type } from 'typebox'

export const FieldErrorSchema = Type.Object({
  location: Type.String({ description: 'body, query or params' }),
  param: Type.String({ description: 'the field' }),
  path: Type.String({ description: 'the field (express-validator 7 name)' }),
  value: Type.Optional(Type.Unknown({ description: 'the value sent (never for passwords)' })),
  msg: Type.String()
})

export const ErrorBody = Type.Object({
  message: Type.String(),
  code: Type.String({ description: 'stable error code (docs/errors.md)' }),
  data: Type.Optional(Type.Array(FieldErrorSchema, { description: 'per-field problems of a 422' }))
}, { description: 'Error: {message, code, data?}' })

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
export const MessageResponse = Type.Object({ message: Type.String() })

export const PostSchema = Type.Object({
  _id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  imageUrl: Type.String({ description: 'relative path of the image: images/<id>.<png|jpg>' }),
  creator: Type.Object({ _id: Type.String(), name: Type.String() }),
  createdAt: Type.String({ description: 'ISO-8601 UTC' }),
  updatedAt: Type.String({ description: 'ISO-8601 UTC' })
})

export const PostsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'page number, from 1' }),
  perPage: Type.Integer({ minimum: 1, maximum: 100, default: 2, description: 'posts per page (default 2, as the original)' })
})
export const PostsResponse = Type.Object({ message: Type.String(), posts: Type.Array(PostSchema), totalItems: Type.Integer() })
export const PostResponse = Type.Object({ message: Type.String(), post: PostSchema })
export const CreatedPostResponse = Type.Object({
  message: Type.String(),
  post: PostSchema,
  creator: Type.Object({ _id: Type.String(), name: Type.String() })
})
export const PostIdParams = Type.Object({ postId: Type.String({ minLength: 1, maxLength: 200, description: 'post id' }) })

const Title = Type.String({ maxLength: 1000, description: 'at least 5 characters (trimmed)' })
const Content = Type.String({ maxLength: 100_000, description: 'at least 5 characters (trimmed)' })
const ImagePath = Type.String({ maxLength: 2048, description: 'path of an existing image (images/<id>.<ext>): the post\'s current one, or one you uploaded' })

export const PostJsonBody = Type.Object({
  title: Type.Optional(Title),
  content: Type.Optional(Content),
  imageUrl: Type.Optional(ImagePath),
  image: Type.Optional(ImagePath)
})
export const PostMultipartBody = Type.Object({
  title: Type.Optional(Title),
  content: Type.Optional(Content),
  image: Type.Optional(Type.String({
    description: 'a PNG or JPEG file (magic bytes are checked; size limit FEED_IMAGE_MAX_BYTES), or the path of an existing image as text',
    contentMediaType: 'application/octet-stream'
  }))
})
/** Create and update take a multipart form (the original client) or JSON with an existing image path. */
export const PostBody = {
  content: {
    'multipart/form-data': { schema: PostMultipartBody },
    'application/json': { schema: PostJsonBody }
  }
}

export const ImageParams = Type.Object({ file: Type.String({ maxLength: 64, description: '<id>.<png|jpg>' }) })
