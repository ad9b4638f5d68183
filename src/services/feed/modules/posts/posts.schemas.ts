import { Type } from 'typebox'

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
const ImagePath = Type.String({
  maxLength: 2048,
  description: "path of an existing image (images/<id>.<ext>): the post's current one, or one you uploaded"
})

export const PostJsonBody = Type.Object({
  title: Type.Optional(Title),
  content: Type.Optional(Content),
  imageUrl: Type.Optional(ImagePath),
  image: Type.Optional(ImagePath)
})
export const PostMultipartBody = Type.Object({
  title: Type.Optional(Title),
  content: Type.Optional(Content),
  image: Type.Optional(
    Type.String({
      description:
        'a PNG or JPEG file (magic bytes are checked; size limit FEED_IMAGE_MAX_BYTES), or the path of an existing image as text',
      contentMediaType: 'application/octet-stream'
    })
  )
})
/** Create and update take a multipart form (the original client) or JSON with an existing image path. */
export const PostBody = {
  content: {
    'multipart/form-data': { schema: PostMultipartBody },
    'application/json': { schema: PostJsonBody }
  }
}
