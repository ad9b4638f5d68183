import fs from 'node:fs'
import path from 'node:path'
import type { MemoryEntry } from '../../state/domain.js'
import type { MemoryEntryInput, MemoryRepository, MemoryScopeKey } from '../../state/memory.repository.js'

export class MemoryInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MemoryInputError'
  }
}

const NAME = /^[a-z][a-z0-9_-]{0,31}$/
const MAX_TITLE_CHARS = 300
const MAX_CONTENT_BYTES = 1024 * 1024
const MAX_NOTES = 10_000

/** Checks an entry written by a person (CLI add, import): a short type and status, a title, bounded content. */
export function validateEntryInput(input: MemoryEntryInput): MemoryEntryInput {
  if (!NAME.test(input.type))
    throw new MemoryInputError(
      `invalid type ${JSON.stringify(input.type)}: lower-case letters, digits, - and _ (e.g. memory, decision, debt)`
    )
  if (input.status !== undefined && !NAME.test(input.status)) throw new MemoryInputError(`invalid status ${JSON.stringify(input.status)}`)
  const title = input.title.trim()
  if (title === '' || title.length > MAX_TITLE_CHARS) throw new MemoryInputError(`a title of 1 to ${MAX_TITLE_CHARS} characters is needed`)
  if (Buffer.byteLength(input.content) > MAX_CONTENT_BYTES)
    throw new MemoryInputError(`the content is larger than ${MAX_CONTENT_BYTES} bytes`)
  if ((input.tags ?? []).some((tag) => !/^[\p{L}\p{N}_.-]{1,64}$/u.test(tag)))
    throw new MemoryInputError('tags are words of letters, digits, ., - and _')
  return { ...input, title }
}

export interface ParsedNote {
  title: string
  content: string
  type: string
  status: string | undefined
  tags: string[]
}

/** A markdown note: optional `---` front matter (title, type, status, tags), the first `# ` heading as the title, else the file name. */
export function parseNote(relativePath: string, text: string): ParsedNote {
  let body = text.replace(/\r\n/g, '\n')
  const front: Record<string, string> = {}
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(body)
  if (match) {
    for (const line of (match[1] as string).split('\n')) {
      const pair = /^([A-Za-z_]+):\s*(.*)$/.exec(line)
      if (pair) front[(pair[1] as string).toLowerCase()] = (pair[2] as string).trim().replace(/^["']|["']$/g, '')
    }
    body = body.slice(match[0].length)
  }
  const heading = /^# (.+)$/m.exec(body)?.[1]?.trim()
  const folderTags = path
    .dirname(relativePath)
    .split(path.sep)
    .filter((part) => part !== '.' && part !== '')
  const frontTags = (front.tags ?? '')
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
  return {
    title: front.title || heading || path.basename(relativePath, path.extname(relativePath)),
    content: body.trim(),
    type: front.type || 'memory',
    status: front.status || undefined,
    tags: [...new Set([...folderTags, ...frontTags])]
      .map((t) => t.replace(/[^\p{L}\p{N}_.-]/gu, '-'))
      .filter((t) => t.length > 0 && t.length <= 64)
  }
}

function markdownFiles(root: string): string[] {
  const found: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile() && /\.(md|markdown)$/i.test(entry.name)) found.push(full)
      if (found.length > MAX_NOTES) throw new MemoryInputError(`more than ${MAX_NOTES} notes under ${root}`)
    }
  }
  walk(root)
  return found
}

export interface ImportResult {
  imported: number
  skipped: Array<{ file: string; reason: string }>
}

/** Writes entries (CLI add, notes import) into one scope. */
export function createMemoryWriteService(repository: MemoryRepository) {
  return {
    /** One entry of the scope in full (undefined when there is none). */
    get: (scope: MemoryScopeKey, id: number): Promise<MemoryEntry | undefined> => repository.get(scope, id),

    async add(scope: MemoryScopeKey, input: MemoryEntryInput): Promise<MemoryEntry> {
      return repository.record(scope, validateEntryInput(input))
    },

    /** Imports every markdown note under `folder`; a note imported again (same relative path) replaces its entry. */
    async importFolder(scope: MemoryScopeKey, folder: string): Promise<ImportResult> {
      const root = path.resolve(folder)
      if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new MemoryInputError(`${root} is not a directory`)
      const result: ImportResult = { imported: 0, skipped: [] }
      for (const file of markdownFiles(root)) {
        const relative = path.relative(root, file)
        try {
          const note = parseNote(relative, fs.readFileSync(file, 'utf8'))
          if (note.content === '') throw new MemoryInputError('the note is empty')
          const input = validateEntryInput({
            type: note.type,
            source: 'import',
            title: note.title,
            content: note.content,
            tags: note.tags,
            ...(note.status ? { status: note.status } : {}),
            metadata: { file: relative.split(path.sep).join('/') }
          })
          await repository.upsert(scope, `import:${relative.split(path.sep).join('/')}`, input)
          result.imported++
        } catch (error) {
          if (!(error instanceof MemoryInputError)) throw error
          result.skipped.push({ file: relative, reason: error.message })
        }
      }
      return result
    }
  }
}
