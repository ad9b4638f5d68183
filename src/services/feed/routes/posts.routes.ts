import type { FastifyRequest } from 'fastify'
import multipart from '@fastify/multipart'
import { AppError } from '../../../core/errors/app-error.js'
import type { App } from '../../../core/http/server.js'
import type { FeedCaller } from '../auth.js'
import { MULTIPART_FIELD_BYTES, readPostForm } from '../multipart.js'
import type { PostInput, PostsService, Upload } from '../modules/posts/posts.service.js'
import {
  CreatedPostResponse, ErrorBody, MessageResponse, PostBody, PostIdParams, PostResponse, PostsQuery, PostsResponse
} from '../schemas.js'
import { callerOf } from './auth.routes.js'

export interface PostRouteDeps {
  posts: PostsService
  authenticate: (request: FastifyRequest) => Promise<FeedCaller>
  imageMaxBytes: number
}

declare module 'fastify' {
  interface FastifyRequest {
    feedUpload?: Upload | null
  }
}

const security = [{ bearer: [] }]
const UPLOAD_NOTE = 'multipart/form-data with title, content and the file field image (PNG or JPEG), as the original client sends; ' +
  'or JSON {title, content, imageUrl} naming an existing image. On update the field image may carry the current image path instead of a file.'

/** The id of a post from the path; anything that is not one of our ids cannot name a post. */
function postId(raw: string): number {
  if (!/^[0-9]{1,15}$/.test(raw)) throw new AppError('FEED_POST_NOT_FOUND')
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
    upload: request.feedUpload ?? undefined,
    imageRef: present(body.image) ?? present(body.imageUrl)
  }
}

/** /feed: every route needs a token (as in the original). */
export function postsRoutes({ posts, authenticate, imageMaxBytes }: PostRouteDeps) {
  return async function register(app: App) {
    app.decorateRequest('feedUpload', null)
    app.addHook('onRequest', async (request) => {
      request.feedCaller = await authenticate(request)
    })

    // The reads take no body (Fastify does not parse one on GET), so they are registered outside
    // the multipart scope below and skip its per-request hooks.
    app.get('/feed/posts', {
      schema: {
        tags: ['feed'], summary: 'A page of posts, newest first', security,
        querystring: PostsQuery, response: { 200: PostsResponse, 401: ErrorBody, 422: ErrorBody }
      }
    }, async (request) => {
      const { page, perPage } = request.query
      return { message: 'Fetched posts successfully.', ...(await posts.list(page, perPage)) }
    })

    app.get('/feed/post/:postId', {
      schema: { tags: ['feed'], summary: 'One post', security, params: PostIdParams, response: { 200: PostResponse, 401: ErrorBody, 404: ErrorBody } }
    }, async (request) => ({ message: 'Post fetched.', post: await posts.get(postId(request.params.postId)) }))

    await app.register(writeRoutes)
  }

  async function writeRoutes(app: App) {
    // Multipart is parsed only here, with the upload limits; the form is read whole before validation.
    await app.register(multipart, {
      limits: { fileSize: imageMaxBytes, files: 1, fields: 10, parts: 12, fieldSize: MULTIPART_FIELD_BYTES, fieldNameSize: 100, headerPairs: 50 },
      throwFileSizeLimit: true
    })
    app.addHook('preValidation', async (request) => {
      if (!request.isMultipart()) return
      const form = await readPostForm(request, imageMaxBytes)
      request.body = form.fields
      request.feedUpload = form.upload
    })

    app.post('/feed/post', {
      schema: {
        tags: ['feed'], summary: 'Create a post with an image', description: UPLOAD_NOTE, security,
        body: PostBody as never,
        response: { 201: CreatedPostResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody }
      }
    }, async (request, reply) => {
      const post = await posts.create(callerOf(request).userId, postInput(request))
      return reply.code(201).send({ message: 'Post created successfully!', post, creator: post.creator })
    })

    app.put('/feed/post/:postId', {
      schema: {
        tags: ['feed'], summary: 'Update your post (a new image replaces and removes the old one)', description: UPLOAD_NOTE, security,
        params: PostIdParams, body: PostBody as never,
        response: { 200: PostResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody }
      }
    }, async (request) => {
      const id = postId(request.params.postId)
      return { message: 'Post updated!', post: await posts.update(callerOf(request).userId, id, postInput(request)) }
    })

    // DELETE stays in this scope: a body sent with it (multipart included) is accepted as before.
    app.delete('/feed/post/:postId', {
      schema: {
        tags: ['feed'], summary: 'Delete your post (and its image unless another post shows it)', security,
        params: PostIdParams, response: { 200: MessageResponse, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody }
      }
    }, async (request) => {
      await posts.delete(callerOf(request).userId, postId(request.params.postId))
      return { message: 'Deleted post.' }
    })
  }
}
