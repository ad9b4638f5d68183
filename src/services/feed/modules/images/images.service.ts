import { createHash } from 'node:crypto'

export interface ImageKind {
  contentType: 'image/png' | 'image/jpeg'
  ext: 'png' | 'jpg'
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/**
 * The image type by its magic bytes (never by the declared content type or file name):
 * a PNG signature followed by the IHDR chunk, or a JPEG start-of-image marker.
 */
export function detectImage(bytes: Buffer): ImageKind | undefined {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString('latin1', 12, 16) === 'IHDR') {
    return { contentType: 'image/png', ext: 'png' }
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { contentType: 'image/jpeg', ext: 'jpg' }
  }
  return undefined
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** The public path of an image, relative as the original's imageUrl was: "images/<id>.<ext>". */
export function imagePath(id: number, ext: string): string {
  return `images/${id}.${ext}`
}

const IMAGE_REF = /^(?:https?:\/\/[^/\s]+)?\/?images\/([0-9]{1,15})\.(png|jpg|jpeg)$/i

/** Parses an image path a client sends back ("images/7.png", "/images/7.png" or an absolute URL of it). */
export function parseImageRef(value: string): { id: number; ext: string } | undefined {
  const match = IMAGE_REF.exec(value.trim())
  if (!match) return undefined
  const id = Number(match[1])
  if (!Number.isSafeInteger(id) || id < 1) return undefined
  const ext = (match[2] as string).toLowerCase()
  return { id, ext: ext === 'jpeg' ? 'jpg' : ext }
}

/** Parses the file segment of GET /images/:file. */
export function parseImageFile(file: string): { id: number; ext: string } | undefined {
  return file.includes('/') ? undefined : parseImageRef(`images/${file}`)
}
