/**
 * Digests of canonical JSON (core/canonical-json.ts) and the immutable files of the
 * cross-verify chain: each is written once, exclusively, 0600 in a 0700 directory; writing the
 * same content again is a no-op, different content is a conflict.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { canonicalJson } from '../../../../core/canonical-json.js'

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

export function digestOf(value: unknown): string {
  return sha256Hex(canonicalJson(value))
}

export class XverifyError extends Error {
  constructor(
    readonly code:
      | 'INVALID_RELATIVE_PATH'
      | 'UNSAFE_FILESYSTEM_ENTRY'
      | 'EVIDENCE_LIMIT_EXCEEDED'
      | 'IMMUTABLE_CONFLICT'
      | 'CORRUPT_RECEIPT'
      | 'NOT_FOUND',
    message: string
  ) {
    super(`${code}: ${message}`)
  }
}

export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
}

/** Writes `content` once; an existing file must hold exactly the same bytes (idempotent replay). */
export function writeImmutable(file: string, content: string | Buffer): void {
  ensurePrivateDir(path.dirname(file))
  try {
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600)
    try {
      fs.writeSync(fd, Buffer.from(content))
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const existing = readRegularFile(file)
    if (!existing.equals(Buffer.from(content))) throw new XverifyError('IMMUTABLE_CONFLICT', `${file} already holds different content`)
  }
}

/** A regular file's bytes; a symlink (or anything else) in its place is refused. */
export function readRegularFile(file: string): Buffer {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false })
  if (!stat) throw new XverifyError('NOT_FOUND', `${file} does not exist`)
  if (!stat.isFile()) throw new XverifyError('UNSAFE_FILESYSTEM_ENTRY', `${file} is not a regular file`)
  return fs.readFileSync(file)
}

/** `{<digestField>: sha256(canonical(body)), <bodyField>: body}` as pretty JSON. */
export function sealed(digestField: string, bodyField: string, body: unknown): { digest: string; text: string } {
  const digest = digestOf(body)
  return { digest, text: `${JSON.stringify({ [digestField]: digest, [bodyField]: body }, null, 2)}\n` }
}
