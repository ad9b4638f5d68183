/** Finds an executable the way a shell would, without running anything. */
import fs from 'node:fs'
import path from 'node:path'

export function findExecutable(name: string, env: Record<string, string | undefined>, cwd: string = process.cwd()): string | null {
  if (name === '') return null
  if (name.includes('/')) {
    const full = path.resolve(cwd, name)
    return isExecutableFile(full) ? full : null
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue
    const full = path.join(dir, name)
    if (isExecutableFile(full)) return full
  }
  return null
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false
    fs.accessSync(file, fs.constants.X_OK)
    return true
  } catch {
    return false
  }
}
