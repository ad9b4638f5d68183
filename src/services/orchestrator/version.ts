import { readFileSync } from 'node:fs'
import path from 'node:path'

/** The package's version, read once from package.json at the repository root. */
export function packageVersion(): string {
  try {
    const file = path.resolve(import.meta.dirname, '..', '..', '..', 'package.json')
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0'
  } catch {
    return '0.0.0'
  }
}
