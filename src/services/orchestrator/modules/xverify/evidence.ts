/**
 * The evidence of a claim: files of the project (and the task's diff), captured into the
 * attempt's directory as content-addressed blobs. Paths are checked strictly; a symlink, a
 * hard-linked file or anything resolving outside the project is refused, and limits bound it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { ensurePrivateDir, sha256Hex, writeImmutable, XverifyError } from './canonical.js'

export const EVIDENCE_LIMITS = { maxFiles: 256, maxFileBytes: 2 * 1024 * 1024, maxTotalBytes: 16 * 1024 * 1024 }

export interface EvidenceFile {
  path: string
  contentSha256: string
  bytes: number
}

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i

/** A project-relative path in its one canonical spelling, or INVALID_RELATIVE_PATH. */
export function checkRelativePath(relative: string): string {
  const bad = (why: string) => new XverifyError('INVALID_RELATIVE_PATH', `"${relative}": ${why}`)
  if (relative.length === 0 || relative.length > 4096) throw bad('empty or too long')
  if (relative.includes('\0') || relative.includes('\\') || relative.includes(':')) throw bad('NUL, backslash or colon')
  if (path.isAbsolute(relative) || relative.startsWith('/')) throw bad('absolute')
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw bad('empty, "." or ".." segment')
    if (segment.length > 255) throw bad('a name over 255 characters')
    if (/[. ]$/.test(segment)) throw bad('a name ending in a dot or space')
    if (RESERVED.test(segment)) throw bad('a reserved device name')
  }
  return relative
}

/** Reads one evidence file of `root`, refusing symlinks on the way, hard links and out-of-tree targets. */
function readEvidence(root: string, relative: string): Buffer {
  let current = root
  for (const segment of relative.split('/')) {
    current = path.join(current, segment)
    const stat = fs.lstatSync(current, { throwIfNoEntry: false })
    if (!stat) throw new XverifyError('NOT_FOUND', `evidence ${relative} does not exist`)
    if (stat.isSymbolicLink()) throw new XverifyError('UNSAFE_FILESYSTEM_ENTRY', `evidence ${relative} goes through a symlink`)
  }
  const stat = fs.lstatSync(current)
  if (!stat.isFile()) throw new XverifyError('UNSAFE_FILESYSTEM_ENTRY', `evidence ${relative} is not a regular file`)
  if (stat.nlink > 1) throw new XverifyError('UNSAFE_FILESYSTEM_ENTRY', `evidence ${relative} is hard-linked`)
  const real = fs.realpathSync(current)
  if (!real.startsWith(fs.realpathSync(root) + path.sep))
    throw new XverifyError('UNSAFE_FILESYSTEM_ENTRY', `evidence ${relative} is outside the project`)
  if (stat.size > EVIDENCE_LIMITS.maxFileBytes)
    throw new XverifyError('EVIDENCE_LIMIT_EXCEEDED', `evidence ${relative} is over ${EVIDENCE_LIMITS.maxFileBytes} bytes`)
  return fs.readFileSync(current)
}

/** Captures the files into `<dir>/blobs/<sha256>`; nothing is written unless every file passes. */
export function captureEvidence(
  root: string,
  relativePaths: readonly string[],
  dir: string
): { files: EvidenceFile[]; contents: Map<string, Buffer> } {
  const paths = [...new Set(relativePaths.map(checkRelativePath))].sort()
  if (paths.length > EVIDENCE_LIMITS.maxFiles)
    throw new XverifyError('EVIDENCE_LIMIT_EXCEEDED', `${paths.length} files (at most ${EVIDENCE_LIMITS.maxFiles})`)
  const contents = new Map<string, Buffer>()
  let total = 0
  for (const relative of paths) {
    const content = readEvidence(root, relative)
    total += content.length
    if (total > EVIDENCE_LIMITS.maxTotalBytes)
      throw new XverifyError('EVIDENCE_LIMIT_EXCEEDED', `evidence over ${EVIDENCE_LIMITS.maxTotalBytes} bytes in all`)
    contents.set(relative, content)
  }
  const files: EvidenceFile[] = []
  ensurePrivateDir(path.join(dir, 'blobs'))
  for (const [relative, content] of contents) {
    const contentSha256 = sha256Hex(content)
    writeImmutable(path.join(dir, 'blobs', contentSha256), content)
    files.push({ path: relative, contentSha256, bytes: content.length })
  }
  return { files, contents }
}
