import type { FastifyRequest } from 'fastify'
import type { Guard } from '../../../../core/http/guard.js'
import type { App } from '../../../../core/http/server.js'
import type { FeedCaller } from '../../auth.js'
import { feedError } from '../../errors.js'
import { acceptPostForms, uploadOf } from '../../http/multipart.js'
import { bearerAccess, ErrorBody, MessageResponse } from '../../http/schemas.js'
import { CreatedPostResponse, PostBody, PostIdParams, PostResponse, PostsQuery, PostsResponse } from './posts.schemas.js'
import type { PostInput, PostsService } from './posts.service.js'

export interface PostRouteDeps {
  posts: PostsService
  caller: Guard<FeedCaller>
  imageMaxBytes: number
}

const UPLOAD_NOTE =
  'multipart/form-data with title, content and the file field image (PNG or JPEG), as the original client sends; ' +
  'or JSON {title, content, imageUrl} naming an existing image. ' +
  'On update the field image may carry the current image path instead of a file.'

/** The id of a post from the path; anything that is not one of our ids cannot name a post. */
function postId(raw: string): number {
  if (!/^[0-9]{1,15}$/.test(raw)) throw feedError('FEED_POST_NOT_FOUND')
  return Number(raw)
}

function present(value: unknown): string | undefined {
  // The original client appends an unset image as the text "undefined" or "null".
  return typeof value === 'string' && value.trim() !== '' && value !== 'undefined' && value !== 'null' ? value : undefined
}

function postInput(request: FastifyRequest): PostInput {
  const body = (request.body ?? {}) as Record<string, unknown>
  return {
    title: body.title,
    content: body.content,
    upload: uploadOf(request),
    imageRef: present(body.image) ?? present(body.imageUrl)
  }
}

/** /feed: every route needs a token (as in the original). */
export function postsRoutes({ posts, caller, imageMaxBytes }: PostRouteDeps) {
  return async function register(app: App) {
    app.addHook('onRequest', caller.check)

    // The reads take no body (Fastify does not parse one on GET), so they are registered outside
    // the multipart scope below and skip its per-request hooks.
    app.get(
      '/feed/posts',
      {
        schema: {
          tags: ['feed'],
          summary: 'A page of posts, newest first',
          security: bearerAccess,
          querystring: PostsQuery,
          response: { 200: PostsResponse, 401: ErrorBody, 422: ErrorBody }
        }
      },
      async (request) => {
        const { page, perPage } = request.query
        return { message: 'Fetched posts successfully.', ...(await posts.list(page, perPage)) }
      }
    )

    app.get(
      '/feed/post/:postId',
      {
        schema: {
          tags: ['feed'],
          summary: 'One post',
          security: bearerAccess,
          params: PostIdParams,
          response: { 200: PostResponse, 401: ErrorBody, 404: ErrorBody }
        }
      },
      async (request) => ({ message: 'Post fetched.', post: await posts.get(postId(request.params.postId)) })
    )

    await app.register(writeRoutes)
  }

  async function writeRoutes(app: App) {
    await acceptPostForms(app, imageMaxBytes)

    app.post(
      '/feed/post',
      {
        config: { validationCode: 'FEED_INVALID_POST' },
        schema: {
          tags: ['feed'],
          summary: 'Create a post with an image',
          description: UPLOAD_NOTE,
          security: bearerAccess,
          body: PostBody as never,
          response: { 201: CreatedPostResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody }
        }
      },
      async (request, reply) => {
        const post = await posts.create(caller.of(request), postInput(request))
        return reply.code(201).send({ message: 'Post created successfully!', post, creator: post.creator })
      }
    )

    app.put(
      '/feed/post/:postId',
      {
        config: { validationCode: 'FEED_INVALID_POST' },
        schema: {
          tags: ['feed'],
          summary: 'Update your post (a new image replaces and removes the old one)',
          description: UPLOAD_NOTE,
          security: bearerAccess,
          params: PostIdParams,
          body: PostBody as never,
          response: {
            200: PostResponse,
            400: ErrorBody,
            401: ErrorBody,
            403: ErrorBody,
            404: ErrorBody,
            413: ErrorBody,
            415: ErrorBody,
            422: ErrorBody
          }
        }
      },
      async (request) => {
        const id = postId(request.params.postId)
        return { message: 'Post updated!', post: await posts.update(caller.of(request), id, postInput(request)) }
      }
    )

    // DELETE stays in this scope: a body sent with it (multipart included) is accepted as before.
    app.delete(
      '/feed/post/:postId',
      {
        schema: {
          tags: ['feed'],
          summary: 'Delete your post (and its image unless another post shows it)',
          security: bearerAccess,
          params: PostIdParams,
          response: { 200: MessageResponse, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody }
        }
      },
      async (request) => {
        await posts.delete(caller.of(request), postId(request.params.postId))
        return { message: 'Deleted post.' }
      }
    )
  }
}
