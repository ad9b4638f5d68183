import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { feedError } from '../../errors.js'
import { ErrorBody } from '../../http/schemas.js'
import type { ImagesRepository } from './images.repository.js'
import { ImageParams } from './images.schemas.js'
import { parseImageFile } from './images.service.js'

/** Whether an If-None-Match header matches the strong ETag. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '')
    return tag === '*' || tag === etag
  })
}

/** GET /images/<id>.<ext>: public, immutable (image ids are never reused). */
export function imagesRoutes({ images }: { images: ImagesRepository }) {
  return async function register(app: App) {
    app.get(
      '/images/:file',
      {
        schema: {
          tags: ['images'],
          summary: 'An uploaded image (the imageUrl of a post)',
          security: [],
          params: ImageParams,
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', description: 'PNG or JPEG bytes, with ETag and immutable cache headers' }),
            304: Type.Unsafe<null>({ type: 'null', description: 'Not modified (If-None-Match matched the ETag)' }),
            404: ErrorBody
          }
        }
      },
      async (request, reply) => {
        const ref = parseImageFile(request.params.file)
        const image = ref ? await images.findWithBytes(ref.id) : undefined
        if (!ref || !image || image.ext !== ref.ext) throw feedError('FEED_IMAGE_NOT_FOUND')
        const etag = `"${image.sha256}"`
        void reply
          .header('etag', etag)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('last-modified', new Date(image.created_at).toUTCString())
        if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send(null)
        return reply.type(image.content_type).send(Buffer.from(image.bytes))
      }
    )
  }
}
