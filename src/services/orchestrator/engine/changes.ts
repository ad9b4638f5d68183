/**
 * Change detection for projects that are not git repositories (or run without worktrees): a
 * snapshot of the tree before and after the agent, compared by content for ordinary files and by
 * size and mtime for large ones (hashing those would cost more than it tells).
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'

export interface FileEntry {
  size: number
  mtimeMs: number
  /** null for files of HASH_LIMIT bytes or more. */
  sha1: string | null
}
export type TreeSnapshot = Map<string, FileEntry>

export interface TreeChanges {
  changed: string[]
  added: string[]
  deleted: string[]
}

const HASH_LIMIT = 1024 * 1024
const SKIPPED_DIRS = new Set(['.git', '.quartet', 'node_modules'])

/** Relative path (with '/') → entry, for every file and symlink under root. */
export async function snapshotTree(root: string): Promise<TreeSnapshot> {
  const snapshot: TreeSnapshot = new Map()
  const walk = async (dir: string): Promise<void> => {
    let entries
    try {
      entries = await fs.readdir(dir, { withFileTypes: true })
    } catch {
      return // removed while we looked, or unreadable: nothing to compare
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) await walk(full)
        continue
      }
      if (!entry.isFile() && !entry.isSymbolicLink()) continue
      const file = await describe(full, entry.isSymbolicLink())
      if (file) snapshot.set(path.relative(root, full).split(path.sep).join('/'), file)
    }
  }
  await walk(root)
  return snapshot
}

export function diffSnapshots(before: TreeSnapshot, after: TreeSnapshot): TreeChanges {
  const changes: TreeChanges = { changed: [], added: [], deleted: [] }
  for (const [file, entry] of after) {
    const previous = before.get(file)
    if (!previous) changes.added.push(file)
    else if (differs(previous, entry)) changes.changed.push(file)
  }
  for (const file of before.keys()) if (!after.has(file)) changes.deleted.push(file)
  for (const list of Object.values(changes)) list.sort()
  return changes
}

/** Every touched path, sorted. */
export const allChanged = (changes: TreeChanges) => [...changes.changed, ...changes.added, ...changes.deleted].sort()

function differs(a: FileEntry, b: FileEntry): boolean {
  if (a.size !== b.size) return true
  if (a.sha1 !== null && b.sha1 !== null) return a.sha1 !== b.sha1
  return a.mtimeMs !== b.mtimeMs
}

async function describe(full: string, symlink: boolean): Promise<FileEntry | undefined> {
  try {
    if (symlink) {
      const stat = await fs.lstat(full)
      const target = await fs.readlink(full)
      return { size: stat.size, mtimeMs: stat.mtimeMs, sha1: sha1(`symlink:${target}`) }
    }
    const stat = await fs.stat(full)
    const hash = stat.size < HASH_LIMIT ? sha1(await fs.readFile(full)) : null
    return { size: stat.size, mtimeMs: stat.mtimeMs, sha1: hash }
  } catch {
    return undefined
  }
}

const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest('hex')
