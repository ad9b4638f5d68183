import type { FastifyRequest } from 'fastify'
import { AppError } from '../../core/errors/app-error.js'
import { fieldError } from './validation.js'
import type { Upload } from './modules/posts/posts.service.js'

/** Text fields of the post form that are kept; any other field is ignored (as the original did). */
const TEXT_FIELDS = new Set(['title', 'content', 'image', 'imageUrl'])
export const MULTIPART_FIELD_BYTES = 200 * 1024

export interface PostForm {
  fields: Record<string, string>
  upload: Upload | undefined
}

function tooLarge(maxBytes: number): AppError {
  const mib = maxBytes / (1024 * 1024)
  const limit = Number.isInteger(mib) ? `${mib} MiB` : `${maxBytes} bytes`
  return new AppError('FEED_IMAGE_TOO_LARGE', `The image is larger than the limit of ${limit}.`, {
    details: [fieldError('image', `Upload an image of at most ${limit}.`)]
  })
}

/** Maps what the multipart parser (busboy) may throw to a clear 4xx: bad uploads are never a 500. */
function uploadError(error: unknown, maxBytes: number): AppError {
  if (error instanceof AppError) return error
  const code = (error as { code?: unknown }).code
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE': return tooLarge(maxBytes)
    case 'FST_FILES_LIMIT':
      return new AppError('FEED_INVALID_POST', 'Upload one image only (field image).', { details: [fieldError('image', 'Only one file may be uploaded.')] })
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('FEED_INVALID_POST', 'The form has too many fields; send title, content and image.')
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the post as multipart/form-data or JSON.')
    default: {
      const reason = error instanceof Error ? error.message : String(error)
      return new AppError('FEED_MULTIPART_INVALID', `The multipart body could not be read (${reason.slice(0, 200)}); it may be truncated or malformed.`)
    }
  }
}

/**
 * Reads a post form completely: the text fields and at most one file, in field "image", into
 * memory (bounded by the upload limit). Empty file parts (a browser's empty file input) count
 * as no file.
 */
export async function readPostForm(request: FastifyRequest, maxBytes: number): Promise<PostForm> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>
  let upload: Upload | undefined
  let problem: AppError | undefined
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image') {
          part.file.resume()
          problem ??= new AppError('FEED_INVALID_POST', `Unexpected file field "${part.fieldname.slice(0, 100)}"; upload the image in the field image.`, {
            details: [fieldError(part.fieldname.slice(0, 100), 'Unexpected file field.')]
          })
          continue
        }
        const bytes = await part.toBuffer()
        if (part.file.truncated) throw tooLarge(maxBytes)
        if (bytes.length === 0 && !part.filename) continue
        if (upload) {
          problem ??= new AppError('FEED_INVALID_POST', 'Upload one image only (field image).', { details: [fieldError('image', 'Only one file may be uploaded.')] })
          continue
        }
        upload = { bytes, filename: part.filename || 'image' }
      } else {
        if (!TEXT_FIELDS.has(part.fieldname)) continue
        if (part.valueTruncated || part.fieldnameTruncated) {
          problem ??= new AppError('FEED_INVALID_POST', `The field ${part.fieldname} is longer than ${MULTIPART_FIELD_BYTES / 1024} KiB.`, {
            details: [fieldError(part.fieldname, 'Too long.')]
          })
          continue
        }
        if (typeof part.value === 'string') fields[part.fieldname] = part.value
      }
    }
  } catch (error) {
    throw uploadError(error, maxBytes)
  }
  if (problem) throw problem
  return { fields, upload }
}
