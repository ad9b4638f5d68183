import type { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import multipart from '@fastify/multipart'
import { AppError } from '../../../core/errors/app-error.js'
import type { App } from '../../../core/http/server.js'
import { markStringSourced } from '../../../core/http/validation.js'
import type { Upload } from '../modules/posts/posts.service.js'
import { feedError, fieldError } from '../errors.js'

/** Text fields of the post form that are kept; any other field is ignored (as the original did). */
const TEXT_FIELDS = new Set(['title', 'content', 'image', 'imageUrl'])
const MULTIPART_FIELD_BYTES = 200 * 1024
/** The most a post form may hold besides its image: its text fields, part headers and boundaries. */
const FORM_OVERHEAD_BYTES = TEXT_FIELDS.size * MULTIPART_FIELD_BYTES + 64 * 1024

interface PostForm {
  fields: Record<string, string>
  upload: Upload | undefined
}

// The file of a multipart post form, kept beside the request rather than on it: typed, and no
// program-wide FastifyRequest augmentation.
const uploads = new WeakMap<FastifyRequest, Upload>()

/** The image file uploaded with this request's post form, if any. */
export function uploadOf(request: FastifyRequest): Upload | undefined {
  return uploads.get(request)
}

/**
 * Post forms for the routes of this scope: multipart bodies are parsed here only, with the upload
 * limits, and read whole before validation — the text fields become the body, the file is
 * available through uploadOf. JSON bodies pass through untouched.
 */
export async function acceptPostForms(app: App, imageMaxBytes: number): Promise<void> {
  await app.register(multipart, {
    limits: {
      fileSize: imageMaxBytes,
      files: 1,
      fields: 10,
      parts: 12,
      fieldSize: MULTIPART_FIELD_BYTES,
      fieldNameSize: 100,
      headerPairs: 50
    },
    throwFileSizeLimit: true
  })
  app.addHook('preValidation', async (request, reply) => {
    if (!request.isMultipart()) return
    // A refused upload closes the connection: otherwise Node reads the rest of the body (60 MB
    // over a 5 MiB limit) to keep the connection for the next request.
    const declared = Number(request.headers['content-length'])
    if (declared > imageMaxBytes + FORM_OVERHEAD_BYTES) {
      reply.header('connection', 'close')
      throw tooLarge(imageMaxBytes)
    }
    let form: PostForm
    try {
      form = await readPostForm(request, imageMaxBytes)
    } catch (error) {
      if ((error as AppError).code === 'FEED_IMAGE_TOO_LARGE') reply.header('connection', 'close')
      throw error
    }
    request.body = markStringSourced(form.fields)
    if (form.upload) uploads.set(request, form.upload)
  })
}

function tooLarge(maxBytes: number): AppError {
  const mib = maxBytes / (1024 * 1024)
  const limit = Number.isInteger(mib) ? `${mib} MiB` : `${maxBytes} bytes`
  return feedError('FEED_IMAGE_TOO_LARGE', `The image is larger than the limit of ${limit}.`, {
    details: [fieldError('image', `Upload an image of at most ${limit}.`)]
  })
}

/** Maps what the multipart parser (busboy) may throw to a clear 4xx: bad uploads are never a 500. */
function uploadError(error: unknown, maxBytes: number): AppError {
  if (error instanceof AppError) return error
  const code = (error as { code?: unknown }).code
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxBytes)
    case 'FST_FILES_LIMIT':
      return feedError('FEED_INVALID_POST', 'Upload one image only (field image).', {
        details: [fieldError('image', 'Only one file may be uploaded.')]
      })
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return feedError('FEED_INVALID_POST', 'The form has too many fields; send title, content and image.')
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return feedError('UNSUPPORTED_MEDIA_TYPE', 'Send the post as multipart/form-data or JSON.')
    default: {
      const reason = error instanceof Error ? error.message : String(error)
      return feedError(
        'FEED_MULTIPART_INVALID',
        `The multipart body could not be read (${reason.slice(0, 200)}); it may be truncated or malformed.`
      )
    }
  }
}

/**
 * The image's bytes, refused the moment they pass the limit: reading on to the end of the
 * stream (as toBuffer does, the parser discarding the excess) took a 60 MB upload in whole.
 */
async function readImage(file: Readable & { truncated?: boolean }, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  const read = (async () => {
    for await (const chunk of file) chunks.push(chunk as Buffer)
  })()
  const overLimit = new Promise<never>((_resolve, reject) => {
    file.once('limit', () => {
      // Destroying the file makes the parser stop reading the request (see the error path's Connection: close).
      file.destroy()
      reject(tooLarge(maxBytes))
    })
  })
  read.catch(() => {}) // settled by overLimit when the limit destroyed the stream
  await Promise.race([read, overLimit])
  overLimit.catch(() => {})
  if (file.truncated) throw tooLarge(maxBytes)
  return Buffer.concat(chunks)
}

/**
 * Reads a post form completely: the text fields and at most one file, in field "image", into
 * memory (bounded by the upload limit). Empty file parts (a browser's empty file input) count
 * as no file.
 */
async function readPostForm(request: FastifyRequest, maxBytes: number): Promise<PostForm> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>
  let upload: Upload | undefined
  let problem: AppError | undefined
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image') {
          part.file.resume()
          problem ??= feedError(
            'FEED_INVALID_POST',
            `Unexpected file field "${part.fieldname.slice(0, 100)}"; upload the image in the field image.`,
            {
              details: [fieldError(part.fieldname.slice(0, 100), 'Unexpected file field.')]
            }
          )
          continue
        }
        const bytes = await readImage(part.file, maxBytes)
        if (bytes.length === 0 && !part.filename) continue
        if (upload) {
          problem ??= feedError('FEED_INVALID_POST', 'Upload one image only (field image).', {
            details: [fieldError('image', 'Only one file may be uploaded.')]
          })
          continue
        }
        upload = { bytes, filename: part.filename || 'image' }
      } else {
        if (!TEXT_FIELDS.has(part.fieldname)) continue
        if (part.valueTruncated || part.fieldnameTruncated) {
          problem ??= feedError('FEED_INVALID_POST', `The field ${part.fieldname} is longer than ${MULTIPART_FIELD_BYTES / 1024} KiB.`, {
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
