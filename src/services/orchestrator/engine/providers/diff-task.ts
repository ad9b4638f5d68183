/**
 * A provider agent cannot edit files itself: it is shown the task and the current content of the
 * files in its scope, and must answer with one unified diff, which the engine applies.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { PlannedTask } from '../types.js'
import type { ChatMessage } from './client.js'

export interface ScopedFile {
  /** Relative to the repository root, with forward slashes. */
  path: string
  /** null when the file does not exist yet (the task may create it). */
  content: string | null
}

export const PROMPT_LIMITS = { perFileChars: 24_000, totalChars: 120_000, maxFiles: 40 }

const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.quartet'])

/** The files a task's `files` patterns name: plain paths (existing or not), directories (their files) and globs (`*`, `**`, `?`). */
export function readScopedFiles(workdir: string, patterns: readonly string[], limits = PROMPT_LIMITS): ScopedFile[] {
  const chosen = new Set<string>()
  let listing: string[] | null = null
  for (const raw of patterns) {
    const pattern = raw.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '')
    if (pattern === '' || path.isAbsolute(pattern) || pattern.split('/').includes('..')) continue
    if (/[*?[]/.test(pattern)) {
      listing ??= listFiles(workdir, limits.maxFiles * 50)
      const matcher = globToRegExp(pattern)
      for (const file of listing) if (matcher.test(file)) chosen.add(file)
      continue
    }
    const full = path.join(workdir, pattern)
    const stat = fs.statSync(full, { throwIfNoEntry: false })
    if (stat?.isDirectory()) {
      listing ??= listFiles(workdir, limits.maxFiles * 50)
      for (const file of listing) if (file.startsWith(`${pattern}/`)) chosen.add(file)
    } else {
      chosen.add(pattern)
    }
  }
  const files: ScopedFile[] = []
  for (const file of [...chosen].sort().slice(0, limits.maxFiles)) {
    const content = readText(path.join(workdir, file))
    if (content !== 'binary') files.push({ path: file, content })
  }
  return files
}

export function buildDiffPrompt(task: PlannedTask, fileContents: readonly ScopedFile[], limits = PROMPT_LIMITS): ChatMessage[] {
  const system = [
    'You change a software repository by answering with exactly ONE unified diff.',
    'Rules:',
    '- Put the whole diff in a single ```diff fenced block; write nothing else that looks like a diff.',
    '- Paths are relative to the repository root, with a/ and b/ prefixes (--- a/src/x.ts, +++ b/src/x.ts).',
    '- A new file uses --- /dev/null and +++ b/path; a deleted file uses --- a/path and +++ /dev/null.',
    '- Context lines must match the current file content exactly as shown.',
    '- If the task needs no change, answer with no diff and say why in one sentence.'
  ].join('\n')

  const parts: string[] = [`# Task ${task.key}: ${task.title}`]
  if (task.description.trim() !== '') parts.push(task.description.trim())
  if (task.goCriteria.length > 0) parts.push(`## Done when (go criteria)\n${task.goCriteria.map((c) => `- ${c}`).join('\n')}`)
  if (task.noGoCriteria.length > 0) parts.push(`## Must not happen (no-go criteria)\n${task.noGoCriteria.map((c) => `- ${c}`).join('\n')}`)
  if (task.files.length > 0) parts.push(`## Scope\n${task.files.map((f) => `- ${f}`).join('\n')}`)

  let budget = limits.totalChars
  const shown: string[] = []
  const left: string[] = []
  for (const file of fileContents) {
    if (file.content === null) {
      shown.push(`### ${file.path}\n(does not exist yet)`)
      continue
    }
    if (budget <= 0) {
      left.push(file.path)
      continue
    }
    const cap = Math.min(limits.perFileChars, budget)
    const truncated = file.content.length > cap
    const body = truncated ? file.content.slice(0, cap) : file.content
    budget -= body.length
    const fence = body.includes('```') ? '~~~~' : '```'
    const heading = `### ${file.path}${truncated ? ` (first ${cap} of ${file.content.length} characters)` : ''}`
    shown.push(`${heading}\n${fence}\n${body}${body.endsWith('\n') ? '' : '\n'}${fence}`)
  }
  if (shown.length > 0) parts.push(`## Current files\n\n${shown.join('\n\n')}`)
  if (left.length > 0) parts.push(`Not shown (size limit): ${left.join(', ')}`)
  parts.push('Answer with ONE unified diff in a ```diff fenced block.')
  return [
    { role: 'system', content: system },
    { role: 'user', content: parts.join('\n\n') }
  ]
}

/**
 * The diff in a model's answer: the first ```diff/```patch block (or any fenced block that is a diff), else a raw diff;
 * null when there is none.
 */
export function extractUnifiedDiff(text: string): string | null {
  const normalised = text.replace(/\r\n?/g, '\n')
  const fences = [...normalised.matchAll(/^(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm)]
  const tagged = fences.find((m) => /^(diff|patch|udiff)$/i.test(m[2] ?? '') && looksLikeDiff(m[3]!))
  const any = tagged ?? fences.find((m) => looksLikeDiff(m[3]!))
  if (any) return withFinalNewline(any[3]!)
  const start = normalised.search(/^(diff --git |--- (a\/|\/dev\/null|\S))/m)
  if (start < 0) return null
  const raw = normalised.slice(start)
  return looksLikeDiff(raw) ? withFinalNewline(raw.replace(/\n(`{3,}|~{3,})[ \t]*\n?[\s\S]*$/, '\n')) : null
}

function looksLikeDiff(text: string): boolean {
  return (
    (/^--- \S.*\n\+\+\+ \S/m.test(text) && /^@@ /m.test(text)) ||
    (/^diff --git /m.test(text) && /^(new|deleted) file mode|^rename from|^@@ /m.test(text))
  )
}

function withFinalNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`
}

function globToRegExp(glob: string): RegExp {
  let source = ''
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!
    if (char === '*' && glob[i + 1] === '*') {
      // `**/` matches zero or more directories; a trailing `**` matches everything below.
      source += glob[i + 2] === '/' ? '(?:.*/)?' : '.*'
      i += glob[i + 2] === '/' ? 2 : 1
    } else if (char === '*') source += '[^/]*'
    else if (char === '?') source += '[^/]'
    else source += /[\\^$.|+(){}[\]]/.test(char) ? `\\${char}` : char
  }
  return new RegExp(`^${source}$`)
}

function listFiles(root: string, max: number): string[] {
  const out: string[] = []
  const walk = (dir: string, prefix: string): void => {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true })
    } catch {
      return // An unreadable directory contributes nothing rather than failing the task.
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= max) return
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      } else if (entry.isFile()) out.push(`${prefix}${entry.name}`)
    }
  }
  walk(root, '')
  return out
}

function readText(file: string): string | null | 'binary' {
  let buffer: Buffer
  try {
    buffer = fs.readFileSync(file)
  } catch {
    return null
  }
  return buffer.subarray(0, 8000).includes(0) ? 'binary' : buffer.toString('utf8')
}
