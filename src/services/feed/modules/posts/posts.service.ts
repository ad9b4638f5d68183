import type { Kysely } from 'kysely'
import { AppError, type ErrorDetail } from '../../../../core/errors/app-error.js'
import { isForeignKeyViolation } from '../../../../core/db/errors.js'
import type { FeedCaller } from '../../auth.js'
import type { FeedTables } from '../../db.js'
import { feedError, fieldError } from '../../errors.js'
import { nulFieldErrors, trimmed } from '../../text-fields.js'
import { detectImage, parseImageRef, sha256Hex } from '../images/images.service.js'
import type { ImagesRepository } from '../images/images.repository.js'
import type { FeedEvents } from '../realtime/realtime.events.js'
import type { PostsRepository, PostView } from './posts.repository.js'
import { renderPost, type RenderedPost } from './posts.render.js'

export const MIN_TEXT = 5
export const DEFAULT_PER_PAGE = 2
export const MAX_PER_PAGE = 100

/** An uploaded file, fully read (its size is bounded by the upload limit). */
export interface Upload {
  bytes: Buffer
  filename: string
}

/** What create and update take, from a multipart form or a JSON body alike. */
export interface PostInput {
  title?: unknown
  content?: unknown
  /** A newly uploaded image (wins over imageRef). */
  upload?: Upload | undefined
  /** The path of an existing image ("images/7.png"), from the field image or imageUrl. */
  imageRef?: string | undefined
}

export interface PostsServiceDeps {
  posts: PostsRepository
  images: ImagesRepository
  events: FeedEvents
  now: () => string
}

interface CheckedInput {
  title: string
  content: string
  upload?: Upload & { contentType: string; ext: string }
  imageRef?: { id: number; ext: string }
}

export function createPostsService({ posts, images, events, now }: PostsServiceDeps) {
  /** Title and content (trimmed, ≥ 5 characters) first, as the original's validators; then the image. */
  function check(input: PostInput, missingImage: 'FEED_NO_IMAGE' | 'FEED_NO_FILE_PICKED'): CheckedInput {
    const details: ErrorDetail[] = nulFieldErrors(input as Record<string, unknown>, ['title', 'content'])
    const title = trimmed(input.title)
    const content = trimmed(input.content)
    if (title === undefined || title.length < MIN_TEXT)
      details.push(fieldError('title', `Title must be at least ${MIN_TEXT} characters long.`))
    if (content === undefined || content.length < MIN_TEXT)
      details.push(fieldError('content', `Content must be at least ${MIN_TEXT} characters long.`))
    if (details.length > 0 || title === undefined || content === undefined) throw feedError('FEED_INVALID_POST', undefined, { details })

    if (input.upload && input.upload.bytes.length > 0) {
      const kind = detectImage(input.upload.bytes)
      if (!kind) {
        throw feedError(
          'FEED_IMAGE_INVALID',
          `The image must be a PNG or JPEG file; "${input.upload.filename.slice(0, 100)}" is neither.`,
          {
            details: [fieldError('image', 'Upload a PNG or JPEG image.')]
          }
        )
      }
      return { title, content, upload: { ...input.upload, ...kind } }
    }
    const ref = input.imageRef?.trim()
    if (!ref) throw feedError(missingImage, undefined, { details: [fieldError('image', 'Attach a PNG or JPEG image in the field image.')] })
    const parsed = parseImageRef(ref)
    if (!parsed) throw unknownImage(ref)
    return { title, content, imageRef: parsed }
  }

  function unknownImage(ref: string): AppError {
    return feedError(
      'FEED_IMAGE_UNKNOWN',
      `"${ref.slice(0, 200)}" is not an image you may use: send a new file in the field image, or the imageUrl of one of your posts.`,
      {
        details: [fieldError('image', 'Unknown image path.')]
      }
    )
  }

  /** Stores the upload, or checks that the referenced image exists and the caller may use it; returns its id. */
  async function resolveImage(trx: Kysely<FeedTables>, userId: number, input: CheckedInput, currentImageId?: number): Promise<number> {
    if (input.upload) {
      return images.insert(trx, {
        uploader_id: userId,
        content_type: input.upload.contentType,
        ext: input.upload.ext,
        size: input.upload.bytes.length,
        sha256: sha256Hex(input.upload.bytes),
        bytes: input.upload.bytes,
        created_at: now()
      })
    }
    const ref = input.imageRef as { id: number; ext: string }
    const image = await images.findMeta(trx, ref.id)
    // Keeping a post's own image is always fine; otherwise only images the caller uploaded.
    if (!image || image.ext !== ref.ext || (image.id !== currentImageId && image.uploader_id !== userId)) {
      throw unknownImage(`images/${ref.id}.${ref.ext}`)
    }
    return image.id
  }

  async function mustView(trx: Kysely<FeedTables>, id: number): Promise<PostView> {
    const view = await posts.findView(id, trx)
    if (!view) throw feedError('FEED_POST_NOT_FOUND')
    return view
  }

  return {
    async list(page: number, perPage: number): Promise<{ posts: RenderedPost[]; totalItems: number }> {
      const { rows, total } = await posts.page((page - 1) * perPage, perPage)
      return { posts: rows.map(renderPost), totalItems: total }
    },

    async get(id: number): Promise<RenderedPost> {
      const view = await posts.findView(id)
      if (!view) throw feedError('FEED_POST_NOT_FOUND')
      return renderPost(view)
    },

    async create(caller: FeedCaller, input: PostInput): Promise<RenderedPost> {
      const userId = caller.userId
      const checked = check(input, 'FEED_NO_IMAGE')
      let view: PostView
      try {
        view = await posts.transaction(async (trx) => {
          if (!(await posts.userExists(trx, userId))) {
            throw feedError('FEED_TOKEN_INVALID', 'Not authenticated: the user of this token does not exist; sign up or log in again.')
          }
          const imageId = await resolveImage(trx, userId, checked)
          const at = now()
          const id = await posts.insert(trx, {
            title: checked.title,
            content: checked.content,
            image_id: imageId,
            creator_id: userId,
            created_at: at,
            updated_at: at
          })
          return mustView(trx, id)
        })
      } catch (error) {
        // The referenced image was removed between our check and the insert.
        if (isForeignKeyViolation(error)) throw unknownImage(input.imageRef ?? '')
        throw error
      }
      const post = renderPost(view)
      events.publish({ action: 'create', post })
      return post
    },

    /** Only the post's creator may change it. */
    async update(caller: FeedCaller, id: number, input: PostInput): Promise<RenderedPost> {
      const userId = caller.userId
      const checked = check(input, 'FEED_NO_FILE_PICKED')
      let result: { view: PostView; replacedImageId: number | undefined }
      try {
        result = await posts.transaction(async (trx) => {
          const post = await posts.findForUpdate(trx, id)
          if (!post) throw feedError('FEED_POST_NOT_FOUND')
          if (post.creator_id !== userId) throw feedError('FEED_NOT_AUTHORIZED')
          const imageId = await resolveImage(trx, userId, checked, post.image_id)
          await posts.update(trx, id, { title: checked.title, content: checked.content, image_id: imageId, updated_at: now() })
          return { view: await mustView(trx, id), replacedImageId: imageId !== post.image_id ? post.image_id : undefined }
        })
      } catch (error) {
        if (isForeignKeyViolation(error)) throw unknownImage(input.imageRef ?? '')
        throw error
      }
      // Announce first (events keep commit order), then tidy up the replaced image.
      const post = renderPost(result.view)
      events.publish({ action: 'update', post })
      if (result.replacedImageId !== undefined) await images.deleteIfUnused(result.replacedImageId)
      return post
    },

    /** Only the post's creator may delete it. */
    async delete(caller: FeedCaller, id: number): Promise<void> {
      const imageId = await posts.transaction(async (trx) => {
        const post = await posts.findForUpdate(trx, id)
        if (!post) throw feedError('FEED_POST_NOT_FOUND')
        if (post.creator_id !== caller.userId) throw feedError('FEED_NOT_AUTHORIZED')
        // Conditional on the row still existing: only one of several parallel deletes wins.
        if (!(await posts.delete(trx, id))) throw feedError('FEED_POST_NOT_FOUND')
        return post.image_id
      })
      events.publish({ action: 'delete', post: String(id) })
      await images.deleteIfUnused(imageId)
    }
  }
}
export type PostsService = ReturnType<typeof createPostsService>
